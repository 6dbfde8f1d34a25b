// A user (sessions, state) and one session: its transcript as a
// conversation, its state at three scopes, summaries and tracks.
import {call, path, query, explain} from '../api.js';
import {h, table, when, json, confirmButton} from '../dom.js';
import {link} from '../router.js';
import {paged} from './apps.js';

function userBase(app, user) {
  return `/v1/apps/${path(app)}/users/${path(user)}`;
}

export function userTabs(app, user, active) {
  const tab = (name, label) => h('a', {href: link(name, {app, user}), class: name === active ? 'active' : null}, label);
  return h('nav', {class: 'tabs'}, tab('user', 'Sessions'), tab('memories', 'Memories'));
}

export function crumbs(params) {
  const parts = [h('a', {href: link('apps')}, 'apps')];
  if (params.app) parts.push(' / ', h('a', {href: link('app', {app: params.app})}, params.app));
  if (params.user) parts.push(' / ', h('a', {href: link('user', params)}, params.user));
  if (params.session) parts.push(' / ', h('a', {href: link('session', params)}, params.session));
  return h('p', {class: 'crumbs'}, parts);
}

export async function user({params}) {
  const {app, user: name} = params;
  const state = await call(`${userBase(app, name)}/state`);
  const searchInput = h('input', {name: 'q', type: 'search', placeholder: 'search this user\'s transcripts'});
  const search = h('form', {class: 'inline', onsubmit: e => {
    e.preventDefault();
    window.location.hash = link('search', {app}, {q: searchInput.value, user: name});
  }}, searchInput, h('button', {type: 'submit'}, 'Search'));
  const sessions = paged(async token => {
    const answer = await call(`${userBase(app, name)}/sessions${query({limit: 50, page_token: token})}`);
    return {items: answer.sessions, next: answer.next_page_token};
  }, rows => table([
    {label: 'session', cell: r => h('a', {href: link('session', {app, user: name, session: r.id})}, r.id)},
    {label: 'title', cell: r => r.title},
    {label: 'events', cell: r => r.event_count},
    {label: 'updated', cell: r => when(r.updated_at)},
    {label: 'created', cell: r => when(r.created_at)},
  ], rows, 'This user has no session.'));
  return h('section', {},
    crumbs(params),
    h('h2', {}, 'User ', h('code', {}, name)),
    userTabs(app, name, 'user'),
    search,
    h('h3', {}, 'Sessions, newest first'),
    sessions,
    h('h3', {}, 'User state'),
    json(state.state));
}

// An event's content as text: content.text, a string content, else its JSON.
export function contentText(content) {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  if (typeof content === 'object' && typeof content.text === 'string') return content.text;
  return JSON.stringify(content, null, 2);
}

function toolCalls(calls) {
  if (!Array.isArray(calls) || !calls.length) return null;
  return h('ul', {class: 'tools'}, calls.map(c => h('li', {},
    h('span', {class: 'label'}, 'tool '), h('code', {}, String(c.name ?? '?')),
    c.status ? ` (${c.status})` : '',
    c.arguments !== undefined ? h('pre', {class: 'json'}, JSON.stringify(c.arguments)) : null,
    c.result_summary ? h('div', {}, String(c.result_summary)) : null)));
}

function media(items) {
  if (!Array.isArray(items) || !items.length) return null;
  return h('ul', {class: 'media'}, items.map(m => h('li', {},
    h('span', {class: 'label'}, `${m.kind ?? 'media'} `), h('code', {}, String(m.path ?? m.url ?? '')),
    m.mime_type ? ` ${m.mime_type}` : '')));
}

function usage(u) {
  if (!u || typeof u !== 'object') return null;
  const parts = Object.entries(u).filter(([, v]) => v).map(([k, v]) => `${k} ${v}`);
  return parts.length ? h('div', {class: 'usage'}, parts.join(' · ')) : null;
}

export function eventBubble(event) {
  return h('article', {class: `event role-${String(event.role).replace(/[^a-z]/g, '')}`, id: `seq-${event.seq}`},
    h('header', {},
      h('strong', {}, event.author), ` · ${event.role} · #${event.seq} · ${when(event.timestamp)}`),
    h('div', {class: 'content'}, contentText(event.content)),
    toolCalls(event.tool_calls),
    media(event.media),
    usage(event.usage),
    event.state_delta ? h('details', {}, h('summary', {}, 'state delta'), json(event.state_delta)) : null);
}

// The merged state split back into its three scopes.
function scopes(state) {
  const out = {session: {}, user: {}, app: {}};
  for (const [key, value] of Object.entries(state || {})) {
    if (key.startsWith('app:')) out.app[key.slice(4)] = value;
    else if (key.startsWith('user:')) out.user[key.slice(5)] = value;
    else out.session[key] = value;
  }
  return out;
}

// The session's tracks by name (each a link that opens it), and the events
// of the one the link named (?track=).
function tracks(base, params, trackName) {
  const list = paged(async token => {
    const answer = await call(`${base}/tracks${query({limit: 100, page_token: token})}`);
    return {items: answer.tracks, next: answer.next_page_token};
  }, rows => table([
    {label: 'track', cell: r => h('a', {href: link('session', params, {track: r.track}),
      class: r.track === trackName ? 'active' : null}, r.track)},
    {label: 'events', cell: r => r.events},
    {label: 'last seq', cell: r => r.last_seq},
    {label: 'last event', cell: r => when(r.last_timestamp)},
  ], rows, 'This session has no track.'));
  const events = h('div', {class: 'track-events'});
  if (trackName) {
    call(`${base}/tracks/${path(trackName)}${query({limit: 1000})}`).then(answer => {
      events.replaceChildren(h('h4', {}, 'Track ', h('code', {}, trackName)), table([
        {label: 'seq', cell: r => r.seq},
        {label: 'time', cell: r => when(r.timestamp)},
        {label: 'payload', cell: r => h('pre', {class: 'json'}, JSON.stringify(r.payload))},
      ], answer.events, `Track ${trackName} has no event.`));
    }, error => { events.replaceChildren(h('p', {class: 'error'}, explain(error))); });
  }
  return h('div', {class: 'tracks'}, list, events);
}

export async function session({params, query: q}) {
  const {app, user: name, session: id} = params;
  const base = `${userBase(app, name)}/sessions/${path(id)}`;
  const [answer, summaries] = await Promise.all([call(base), call(`${base}/summaries`)]);
  const s = answer.session;
  const state = scopes(s.state);
  const remove = confirmButton('Delete session', `Delete session ${id} of user ${name}? This cannot be undone.`,
    async () => {
      await call(base, {method: 'DELETE'});
      window.location.hash = link('user', {app, user: name});
    });
  return h('section', {},
    crumbs(params),
    h('h2', {}, 'Session ', h('code', {}, id), s.title ? ` — ${s.title}` : ''),
    h('dl', {class: 'facts'},
      h('dt', {}, 'created'), h('dd', {}, when(s.created_at)),
      h('dt', {}, 'updated'), h('dd', {}, when(s.updated_at)),
      h('dt', {}, 'expires'), h('dd', {}, when(s.expires_at)),
      h('dt', {}, 'version'), h('dd', {}, s.version),
      h('dt', {}, 'events'), h('dd', {}, s.event_count),
      h('dt', {}, 'parent'), h('dd', {}, s.parent_id || '—'),
      h('dt', {}, 'usage'), h('dd', {}, usage(s.usage) || '—'),
      h('dt', {}, 'metadata'), h('dd', {}, json(s.metadata))),
    remove,
    h('h3', {}, 'Transcript'),
    answer.events.length ? h('div', {class: 'transcript'}, answer.events.map(eventBubble))
      : h('p', {class: 'empty'}, 'No event.'),
    h('h3', {}, 'State'),
    h('div', {class: 'scopes'},
      h('div', {}, h('h4', {}, 'session'), json(state.session)),
      h('div', {}, h('h4', {}, 'user'), json(state.user)),
      h('div', {}, h('h4', {}, 'app'), json(state.app))),
    h('h3', {}, 'Summaries'),
    table([
      {label: 'filter key', cell: r => r.filter_key || '""'},
      {label: 'covers', cell: r => `#${r.from_seq}–#${r.up_to_seq} (${r.events_covered} events)`},
      {label: 'source', cell: r => r.source},
      {label: 'created', cell: r => when(r.created_at)},
      {label: 'text', cell: r => h('div', {class: 'content'}, r.text)},
    ], summaries.summaries, 'No summary.'),
    h('h3', {id: 'tracks'}, 'Tracks'),
    tracks(base, params, q.track));
}
