// Transcript search with the matched words marked.
import {call, path, query} from '../api.js';
import {h, when, marked, select} from '../dom.js';
import {link, linkForm} from '../router.js';
import {appTabs} from './apps.js';
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
