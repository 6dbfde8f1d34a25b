// Transcript search with the matched words marked, and the app's lanes.
import {call, path, query} from '../api.js';
import {h, table, when, marked, select} from '../dom.js';
import {link, linkForm} from '../router.js';
import {appTabs, paged} from './apps.js';
import {contentText} from './sessions.js';

export async function search({params, query: q}) {
  const {app} = params;
  const form = linkForm('search', {app},
  h('input', {name: 'q', type: 'search', placeholder: 'words, "a phrase", /a/path', value: q.q || '', size: 40}),
  h('label', {}, 'match ', select('match', ['any', 'all'], q.match || 'any')),
  h('label', {}, 'order ', select('order', ['relevance', 'time'], q.order || 'relevance')),
  h('input', {name: 'user', placeholder: 'user (any)', value: q.user || ''}),
  h('input', {name: 'role', placeholder: 'role (any)', value: q.role || ''}),
  h('button', {type: 'submit'}, 'Search'));
  const out = [];
  if (q.q) {
    const answer = await call(`/v1/apps/${path(app)}/search${query({
      q: q.q, match: q.match, order: q.order, user: q.user, role: q.role, context: 1, limit: 20})}`);
    if (!answer.results.length) out.push(h('p', {class: 'empty'}, 'No transcript holds that.'));
    for (const result of answer.results) {
      const s = result.session;
      out.push(h('article', {class: 'result'},
        h('h4', {}, h('a', {href: link('session', {app, user: s.user, session: s.id})}, `${s.user} / ${s.id}`),
          s.title ? ` — ${s.title}` : '', h('span', {class: 'label'}, ` updated ${when(s.updated_at)}`)),
        result.hits.map(hit => h('div', {class: 'hit'},
          h('a', {href: link('session', {app, user: s.user, session: s.id})}, `#${hit.seq} ${hit.role}`), ': ',
          h('span', {class: 'excerpt'}, marked(hit.excerpt, hit.highlights)),
          h('details', {}, h('summary', {}, 'context'),
            hit.context.map(e => h('div', {class: 'context'}, `#${e.seq} ${e.author}: `, contentText(e.content))))))));
    }
  }
  return h('section', {}, h('h2', {}, 'Search ', h('code', {}, app)), appTabs(app, 'search'), form, out);
}

function flags(lane) {
  const out = [];
  if (lane.suspended) out.push('suspended');
  if (lane.resume_pending) out.push(`resume pending (${lane.resume_reason})`);
  if (lane.was_auto_reset) out.push(`auto reset: ${lane.auto_reset_reason}`);
  if (lane.is_fresh_reset) out.push('fresh reset');
  return out.join(', ') || '—';
}

export async function lanes({params}) {
  const {app} = params;
  const list = paged(async token => {
    const answer = await call(`/v1/apps/${path(app)}/lanes${query({limit: 50, page_token: token})}`);
    return {items: answer.lanes, next: answer.next_page_token};
  }, rows => table([
    {label: 'lane', cell: r => h('code', {}, r.lane)},
    {label: 'user', cell: r => h('a', {href: link('user', {app, user: r.user})}, r.user)},
    {label: 'session', cell: r => h('a', {href: link('session', {app, user: r.user, session: r.session_id})},
      r.session_id)},
    {label: 'platform', cell: r => r.platform ?? '—'},
    {label: 'chat', cell: r => r.chat_type ?? '—'},
    {label: 'policy state', cell: flags},
    {label: 'version', cell: r => r.version},
    {label: 'updated', cell: r => when(r.updated_at)},
  ], rows, 'This app has no lane.'));
  return h('section', {}, h('h2', {}, 'Lanes ', h('code', {}, app)), appTabs(app, 'lanes'),
    h('p', {class: 'note'}, 'Reset policies come from the daemon\'s reset configuration; each lane shows what ' +
      'they did to it (auto resets and their reason, suspension, pending resumes).'), list);
}
