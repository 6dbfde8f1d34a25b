// router.js -- deep links: every view is a hash route, so a URL names the
// view with its filters and a colleague can open the same one. The hash
// never holds the token.
//   #/apps                                  apps (admin token)
//   #/apps/{app}                            an app: users, lanes, app state
//   #/apps/{app}/search?q=&match=&user=     transcript search
//   #/apps/{app}/lanes                      lanes
//   #/apps/{app}/recall?q=&mode=&match=...  recall playground
//   #/apps/{app}/users/{user}               a user: sessions, user state
//   #/apps/{app}/users/{user}/memories?...  a user's memories with filters
//   #/apps/{app}/users/{user}/sessions/{s}  a session: transcript, state, summaries, tracks
//   #/metrics                               live charts

import {h} from './dom.js';

const ROUTES = [
  ['apps', /^\/apps$/, []],
  ['app', /^\/apps\/([^/]+)$/, ['app']],
  ['search', /^\/apps\/([^/]+)\/search$/, ['app']],
  ['lanes', /^\/apps\/([^/]+)\/lanes$/, ['app']],
  ['recall', /^\/apps\/([^/]+)\/recall$/, ['app']],
  ['user', /^\/apps\/([^/]+)\/users\/([^/]+)$/, ['app', 'user']],
  ['memories', /^\/apps\/([^/]+)\/users\/([^/]+)\/memories$/, ['app', 'user']],
  ['session', /^\/apps\/([^/]+)\/users\/([^/]+)\/sessions\/([^/]+)$/, ['app', 'user', 'session']],
  ['metrics', /^\/metrics$/, []],
];

// {name, params, query} of the current hash; name null when unknown.
export function current() {
  const hash = window.location.hash.replace(/^#/, '') || '/apps';
  const [pathPart, queryPart = ''] = hash.split('?');
  const query = Object.fromEntries(new URLSearchParams(queryPart));
  for (const [name, pattern, keys] of ROUTES) {
    const match = pattern.exec(pathPart);
    if (!match) continue;
    const params = {};
    keys.forEach((key, i) => { params[key] = decodeURIComponent(match[i + 1]); });
    return {name, params, query};
  }
  return {name: null, params: {}, query, path: pathPart};
}

// The hash of a route: link('session', {app, user, session}, {track: 'audit'}).
export function link(name, params = {}, query = {}) {
  const e = encodeURIComponent;
  const paths = {
    apps: () => '/apps',
    app: p => `/apps/${e(p.app)}`,
    search: p => `/apps/${e(p.app)}/search`,
    lanes: p => `/apps/${e(p.app)}/lanes`,
    recall: p => `/apps/${e(p.app)}/recall`,
    user: p => `/apps/${e(p.app)}/users/${e(p.user)}`,
    memories: p => `/apps/${e(p.app)}/users/${e(p.user)}/memories`,
    session: p => `/apps/${e(p.app)}/users/${e(p.user)}/sessions/${e(p.session)}`,
    metrics: () => '/metrics',
  };
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') q.set(key, value);
  }
  const text = q.toString();
  return `#${paths[name](params)}${text ? `?${text}` : ''}`;
}

// A form whose fields become the query of route `name`'s link when sent:
// filters are part of the link, so the filtered view can be shared.
export function linkForm(name, params, ...fields) {
  return h('form', {class: 'filters', onsubmit: e => {
    e.preventDefault();
    window.location.hash = link(name, params, Object.fromEntries(new FormData(e.target)));
  }}, ...fields);
}
