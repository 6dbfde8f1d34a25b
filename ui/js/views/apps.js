// The top of the tree: apps (admin token), then an app's users and state.
import {call, path, query, explain, ApiError} from '../api.js';
import {h, table, when, json} from '../dom.js';
import {link} from '../router.js';

export function counts() {
  return [
    {label: 'sessions', cell: r => r.sessions},
    {label: 'events', cell: r => r.events},
    {label: 'memories', cell: r => r.memories},
    {label: 'last active', cell: r => when(r.last_active_at)},
  ];
}

// An app token cannot list apps: let its user name the app instead.
function openAppForm() {
  const input = h('input', {name: 'app', placeholder: 'app name', required: true});
  return h('form', {class: 'inline', onsubmit: e => {
    e.preventDefault();
    window.location.hash = link('app', {app: input.value.trim()});
  }}, input, h('button', {type: 'submit'}, 'Open app'));
}

export async function apps() {
  try {
    const answer = await call('/v1/apps');
    return h('section', {},
      h('h2', {}, 'Apps'),
      table([
        {label: 'app', cell: r => h('a', {href: link('app', {app: r.app})}, r.app)},
        {label: 'users', cell: r => r.users},
        ...counts(),
        {label: 'configured', cell: r => (r.configured ? 'yes' : 'no')},
      ], answer.apps, 'No app holds data yet.'),
      h('p', {}, 'Open another app by name: ', openAppForm()));
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) {
      return h('section', {},
        h('h2', {}, 'Apps'),
        h('p', {class: 'note'}, 'Listing every app needs an admin token; this one belongs to one app.'),
        openAppForm());
    }
    throw error;
  }
}

export function appTabs(app, active) {
  const tab = (name, label) => h('a', {href: link(name, {app}), class: name === active ? 'active' : null}, label);
  return h('nav', {class: 'tabs'}, tab('app', 'Users'), tab('search', 'Search'), tab('lanes', 'Lanes'),
    tab('recall', 'Recall playground'));
}

// A paged list: load(token) -> {rows, next}; rows rendered by makeTable.
// data-loaded is set once the first page (or its error) is on screen: the
// view itself is shown before that.
export function paged(load, makeTable) {
  const holder = h('div', {class: 'paged'});
  const more = h('button', {class: 'more'}, 'More');
  const rows = [];
  const status = h('p', {class: 'error', role: 'alert', hidden: true});
  async function page(token) {
    try {
      const {items, next} = await load(token);
      rows.push(...items);
      holder.replaceChildren(makeTable(rows));
      more.hidden = !next;
      more.onclick = () => page(next);
    } catch (error) {
      status.hidden = false;
      status.textContent = explain(error);
    }
    holder.dataset.loaded = 'true';
  }
  page(null);
  return h('div', {}, holder, more, status);
}

export async function app({params}) {
  const {app: name} = params;
  const state = await call(`/v1/apps/${path(name)}/state`);
  const users = paged(async token => {
    const answer = await call(`/v1/apps/${path(name)}/users${query({limit: 50, page_token: token})}`);
    return {items: answer.users, next: answer.next_page_token};
  }, rows => table([
    {label: 'user', cell: r => h('a', {href: link('user', {app: name, user: r.user})}, r.user)},
    ...counts(),
  ], rows, 'No user of this app holds data.'));
  return h('section', {},
    h('h2', {}, 'App ', h('code', {}, name)),
    appTabs(name, 'app'),
    h('h3', {}, 'Users, most recently active first'),
    users,
    h('h3', {}, 'App state'),
    json(state.state));
}
