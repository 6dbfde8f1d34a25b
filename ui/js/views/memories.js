// A user's memories with filters, and the recall playground.
import {call, path, query} from '../api.js';
import {h, table, when, json, confirmButton, select} from '../dom.js';
import {link, linkForm} from '../router.js';
import {appTabs, paged} from './apps.js';
import {crumbs, userTabs} from './sessions.js';

// "key=value" lines into {key: value}; a value that reads as JSON is that value.
export function metadataLines(text) {
  const out = {};
  for (const line of (text || '').split('\n')) {
    const at = line.indexOf('=');
    if (at < 1) continue;
    const key = line.slice(0, at).trim();
    const raw = line.slice(at + 1).trim();
    try {
      const value = JSON.parse(raw);
      out[key] = typeof value === 'object' && value !== null ? raw : value;
    } catch {
      out[key] = raw;
    }
  }
  return out;
}

export async function memories({params, query: q}) {
  const {app, user} = params;
  const base = `/v1/apps/${path(app)}/users/${path(user)}/memories`;
  const filters = {namespace: q.namespace, status: q.status};
  for (const [key, value] of Object.entries(metadataLines(q.metadata))) filters[`metadata.${key}`] = value;
  const form = linkForm('memories', params,
  h('input', {name: 'namespace', placeholder: 'namespace (any)', value: q.namespace || ''}),
  h('label', {}, 'status ', select('status',
    [['', 'any'], ['pending', 'pending'], ['ready', 'ready'], ['failed', 'failed'], ['none', 'none']], q.status)),
  h('textarea', {name: 'metadata', rows: 2, cols: 30, placeholder: 'metadata filters, one key=value a line'},
    q.metadata || ''),
  h('button', {type: 'submit'}, 'Filter'));
  const list = paged(async token => {
    const answer = await call(`${base}${query({...filters, limit: 50, page_token: token})}`);
    return {items: answer.memories, next: answer.next_page_token};
  }, rows => table([
    {label: 'id', cell: r => h('code', {}, r.id)},
    {label: 'text', cell: r => h('div', {class: 'content'}, r.text)},
    {label: 'namespace', cell: r => r.namespace || '""'},
    {label: 'metadata', cell: r => json(r.metadata)},
    {label: 'status', cell: r => h('span', {class: `status-${r.embedding}`}, r.embedding)},
    {label: 'updated', cell: r => when(r.updated_at)},
    {label: '', cell: r => confirmButton('Delete', `Delete memory ${r.id} of user ${user}? This cannot be undone.`,
      async () => {
        await call(`${base}/${path(r.id)}`, {method: 'DELETE'});
        window.dispatchEvent(new HashChangeEvent('hashchange'));
      })},
  ], rows, 'No memory passes these filters.'));
  return h('section', {}, crumbs(params), h('h2', {}, 'Memories of ', h('code', {}, user)),
    userTabs(app, user, 'memories'), form, list);
}

function number(value, digits = 4) {
  return value === null || value === undefined ? '—' : Number(value).toFixed(digits);
}

export async function recall({params, query: q}) {
  const {app} = params;
  const form = linkForm('recall', {app},
  h('input', {name: 'q', type: 'search', placeholder: 'a question', value: q.q || '', size: 40}),
  h('label', {}, 'mode ', select('mode',
    [['', 'default'], ['keyword', 'keyword'], ['semantic', 'semantic'], ['hybrid', 'hybrid']], q.mode)),
  h('label', {}, h('input', {type: 'checkbox', name: 'match', value: 'all', checked: q.match === 'all'}),
    ' match all'),
  h('input', {name: 'user', placeholder: 'user (whole app)', value: q.user || ''}),
  h('input', {name: 'namespace', placeholder: 'namespace (any)', value: q.namespace || ''}),
  h('textarea', {name: 'metadata', rows: 2, cols: 30, placeholder: 'metadata filters, one key=value a line'},
    q.metadata || ''),
  h('input', {name: 'limit', type: 'number', min: 1, max: 100, value: q.limit || 10}),
  h('button', {type: 'submit'}, 'Recall'));
  const out = [];
  if (q.q) {
    const body = {query: q.q, limit: Number(q.limit || 10)};
    if (q.mode) body.mode = q.mode;
    if (q.match === 'all') body.match = 'all';
    if (q.user) body.user = q.user;
    if (q.namespace) body.namespace = q.namespace;
    const metadata = metadataLines(q.metadata);
    if (Object.keys(metadata).length) body.metadata = metadata;
    const answer = await call(`/v1/apps/${path(app)}/memories/search`, {method: 'POST', body});
    out.push(h('p', {}, 'mode: ', h('strong', {class: 'mode'}, answer.mode)));
    out.push(table([
      {label: '#', cell: r => answer.memories.indexOf(r) + 1},
      {label: 'user', cell: r => h('a', {href: link('memories', {app, user: r.user})}, r.user)},
      {label: 'text', cell: r => h('div', {class: 'content'}, r.text)},
      {label: 'score', cell: r => number(r.score)},
      {label: 'keyword_rank', cell: r => r.keyword_rank ?? '—'},
      {label: 'vector_rank', cell: r => r.vector_rank ?? '—'},
      {label: 'similarity', cell: r => number(r.similarity, 3)},
      {label: 'metadata', cell: r => json(r.metadata)},
    ], answer.memories, 'Nothing recalled.'));
  }
  return h('section', {}, h('h2', {}, 'Recall playground ', h('code', {}, app)), appTabs(app, 'recall'), form, out);
}
