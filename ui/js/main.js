// main.js -- the console's shell: the token form, the navigation and the
// view of the current hash route (router.js), drawn again on every change.
import {token, setToken, explain} from './api.js';
import {h, fill} from './dom.js';
import {current, link} from './router.js';
import {apps, app} from './views/apps.js';
import {user, session} from './views/sessions.js';
import {search} from './views/search.js';
import {lanes} from './views/lanes.js';
import {memories, recall} from './views/memories.js';
import {metrics} from './views/metrics.js';

const VIEWS = {apps, app, user, session, search, lanes, memories, recall, metrics};

const view = document.getElementById('view');
const tokenInput = document.getElementById('token');
const tokenState = document.getElementById('token-state');
let shown = null;  // the view on screen, stopped before the next one
let drawing = 0;   // the latest draw: an older one that finishes late is dropped

function showTokenState() {
  tokenState.textContent = token() ? 'token set for this tab' : 'no token (fine with auth off on loopback)';
}

async function draw() {
  const mine = ++drawing;
  if (shown && shown.stop) shown.stop();
  shown = null;
  const route = current();
  delete view.dataset.view;  // set again once this route's view is on screen
  const render = VIEWS[route.name];
  if (!render) {
    fill(view, h('p', {class: 'error', role: 'alert'}, 'No such view: ', route.path || ''),
      h('a', {href: link('apps')}, 'Back to the apps'));
    return;
  }
  fill(view, h('p', {class: 'note'}, 'Loading…'));
  try {
    const node = await render(route);
    if (mine !== drawing) {
      if (node.stop) node.stop();
      return;
    }
    shown = node;
    fill(view, node);
  } catch (error) {
    if (mine !== drawing) return;
    fill(view, h('p', {class: 'error', role: 'alert'}, explain(error)));
  }
  view.dataset.view = route.name;
}

document.getElementById('token-form').addEventListener('submit', e => {
  e.preventDefault();
  setToken(tokenInput.value.trim());
  tokenInput.value = '';
  showTokenState();
  draw();
});
document.getElementById('forget').addEventListener('click', () => {
  setToken('');
  showTokenState();
  draw();
});
window.addEventListener('hashchange', draw);
showTokenState();
draw();
