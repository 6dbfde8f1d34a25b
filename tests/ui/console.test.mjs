// The web console in a real browser: Debian's chromium, headless, driven by
// playwright-core against a real mnemod whose data the tests seed through
// the API. Every view must show the seeded data; stored markup must never
// run (dialogs and console errors are watched the whole time).
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { chromium } from 'playwright-core';

import { SHOP_TOKEN, startDaemon } from '../mcp/daemon.mjs';
import { startTableEmbedder } from './table_embedder.mjs';

const ADMIN_TOKEN = 'admin-token';
const SCRIPT = '<script>alert("xss-1")</script>';
const IMG = '<img src=x onerror=alert("xss-2")>';
const SHOTS = process.env.MNEMO_UI_SCREENSHOTS ?? new URL('./screenshots', import.meta.url).pathname;
// One override and the default, so the lanes view has one lane under each.
const RESET_POLICIES = 'reset:\n  timezone: UTC\n  default: {mode: daily, at_hour: 3}\n  overrides:\n' +
  '    - {match: {platform: telegram, chat_type: dm}, policy: {mode: idle, idle_minutes: 60, notify: false}}\n';
const BROWSER_ARGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-quic'];

// Debian's chromium, never a downloaded one, kept off the network.
function launchBrowser() {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: BROWSER_ARGS });
}

async function api(base, method, path, body, token = SHOP_TOKEN) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? null : response.json();
}

// What every view's data comes from, written as an agent would.
async function seed(base) {
  const alice = '/v1/apps/shop/users/alice';
  await api(base, 'POST', `${alice}/sessions`, {
    id: 'trip', title: 'Lisbon trip', state: { step: 2, 'user:lang': 'pt', 'app:currency': 'EUR' },
  });
  await api(base, 'POST', `${alice}/sessions/trip/events`, { events: [
    { author: 'user', content: { text: `Book a flight to Lisbon ${SCRIPT}` } },
    { author: 'planner', content: { text: 'Searching flights to Lisbon.' },
      tool_calls: [{ name: 'flights.search', arguments: { to: 'LIS' }, status: 'ok' }],
      media: [{ kind: 'image', path: '/data/map.png', mime_type: 'image/png' }],
      usage: { input_tokens: 40, output_tokens: 12 } },
    { author: 'user', content: IMG },
  ] });
  await api(base, 'POST', `${alice}/sessions/trip/summaries`, { text: 'Alice plans a trip to Lisbon.' });
  await api(base, 'POST', `${alice}/sessions/trip/tracks/audit`, { payload: { tool: 'flights.search', ms: 12 } });
  await api(base, 'POST', `${alice}/sessions/trip/tracks/ui`, { payload: { clicked: 'book' } });
  await api(base, 'POST', `${alice}/sessions/trip/tracks/ui`, { payload: { clicked: 'pay' } });
  await api(base, 'POST', `${alice}/sessions`, { id: 'old-chat' });
  await api(base, 'POST', '/v1/apps/shop/users/bob/sessions', { id: 'b1' });
  await api(base, 'POST', '/v1/apps/shop/lanes/telegram:dm:42/resolve',
    { user: 'bob', platform: 'telegram', chat_type: 'dm' });
  await api(base, 'POST', '/v1/apps/shop/lanes/slack:group:C1/resolve',
    { user: 'bob', platform: 'slack', chat_type: 'group' });
  await api(base, 'POST', '/v1/apps/shop/lanes/slack:group:C1/suspend', {});
  await api(base, 'POST', '/v1/apps/shop/lanes/slack:group:C1/resolve',
    { user: 'bob', platform: 'slack', chat_type: 'group' });
  await api(base, 'POST', `${alice}/memories`, { memories: [
    { id: 'seat', text: 'Prefers an aisle seat on flights', metadata: { topic: 'travel' } },
    { id: 'tea', text: 'Drinks green tea', metadata: { topic: 'food' } },
    { id: 'evil', text: `${IMG} ${SCRIPT}`, metadata: { topic: 'travel' } },
  ] });
  // The recall playground's constructed case (its own user, so nothing else counts):
  // all three words, then one rare word in a short text, then one word in a longer one.
  await api(base, 'POST', '/v1/apps/shop/users/carol/memories', { memories: [
    { id: 'c-window', text: 'window seat please' },
    { id: 'c-aisle', text: 'aisle' },
    { id: 'c-all', text: 'aisle seat on flights' },
  ] });
  await api(base, 'PATCH', '/v1/apps/shop/state', { state_delta: { promo: 'spring' } });
}

describe('web console', () => {
  let daemon;
  let browser;
  let page;
  const dialogs = [];
  const errors = [];

  before(async () => {
    daemon = await startDaemon(RESET_POLICIES, { admin: ADMIN_TOKEN });
    await seed(daemon.base);
    mkdirSync(SHOTS, { recursive: true });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // The delete buttons ask through confirm(), and are accepted; any other
    // dialog (an alert from stored markup) is a failure.
    page.on('dialog', async (dialog) => {
      if (dialog.type() === 'confirm') return dialog.accept();
      dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      return dialog.dismiss();
    });
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
    });
    page.on('pageerror', (error) => errors.push(error.message));
  });

  after(async () => {
    await browser?.close();
    const exit = await daemon?.stop();
    assert.equal(exit, 'exit 0', `mnemod did not stop cleanly:\n${daemon?.log()}`);
  });

  const open = async (hash) => {
    await page.goto(`${daemon.base}/ui/${hash}`);
  };
  const useToken = async (value) => {
    await page.fill('#token', value);
    await page.click('#token-form button[type=submit]');
  };
  // The view is on screen with the first page of each of its lists.
  const shown = async (view) => {
    await page.waitForSelector(`#view[data-view="${view}"]`);
    await page.waitForFunction(() => [...document.querySelectorAll('#view .paged')].every((p) => p.dataset.loaded));
  };
  const shot = (name) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  const texts = (selector) => page.$$eval(selector, (nodes) => nodes.map((n) => n.textContent.trim()));

  test('/ui/ carries a strict CSP, nosniff and no framing', async () => {
    for (const path of ['/ui/', '/ui/js/main.js', '/ui/vendor/uplot/uPlot.esm.js']) {
      const response = await fetch(`${daemon.base}${path}`);
      assert.equal(response.status, 200, path);
      const csp = response.headers.get('content-security-policy');
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, /script-src 'self'(;|$)/, 'no unsafe-inline, no unsafe-eval');
      assert.match(csp, /connect-src 'self'/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    }
    assert.match((await fetch(`${daemon.base}/ui/js/main.js`)).headers.get('content-type'), /^text\/javascript/);
    const redirect = await fetch(`${daemon.base}/ui`, { redirect: 'manual' });
    assert.equal(redirect.status, 301);
    assert.equal((await fetch(`${daemon.base}/ui/nope.js`)).status, 404);
  });

  test('a wrong token shows a clear message', async () => {
    await open('#/apps');
    await useToken('not-a-token');
    const message = await page.waitForSelector('#view .error >> text=/not known/');
    assert.match(await message.textContent(), /refused the token/);
    assert.match(await message.textContent(), /Enter an app token or an admin token/);
  });

  test('an app token cannot list the apps and is told to open its own', async () => {
    await useToken(SHOP_TOKEN);
    await page.waitForSelector('#view .note >> text=needs an admin token');
    await page.fill('#view input[name=app]', 'shop');
    await page.click('#view form button');
    await shown('app');
    assert.deepEqual(await texts('#view table tbody tr td:first-child'), ['carol', 'alice', 'bob']);
  });

  test('apps, then users most recently active first, then a user\'s sessions newest first', async () => {
    await open('#/apps');
    await useToken(ADMIN_TOKEN);
    await shown('apps');
    // bank is configured and holds nothing yet: listed, with zeros.
    assert.deepEqual(await texts('#view table tbody tr td:first-child'), ['bank', 'shop']);
    assert.match(await page.textContent('#view table tbody tr:nth-child(2)'), /shop3/);
    await shot('apps');
    await page.click('#view a:text("shop")');
    await shown('app');
    assert.deepEqual(await texts('#view table tbody tr td:first-child'), ['carol', 'alice', 'bob']);
    assert.match(await page.textContent('#view pre.json'), /spring/);
    await page.click('#view a:text("alice")');
    await shown('user');
    assert.deepEqual(await texts('#view table tbody tr td:first-child'), ['old-chat', 'trip']);
    assert.match(await page.textContent('#view'), /"lang": "pt"/);
    await shot('user');
  });

  test('a session reads as a conversation with its state, summaries and tracks', async () => {
    await open('#/apps/shop/users/alice/sessions/trip?track=audit');
    await shown('session');
    const tracks = await page.$$eval('#view .tracks .paged tbody tr', (trs) => trs.map((tr) =>
      [...tr.querySelectorAll('td')].slice(0, 3).map((td) => td.textContent.trim())));
    assert.deepEqual(tracks, [['audit', '1', '1'], ['ui', '2', '2']], 'track, events, last seq');
    const bubbles = await texts('#view .event .content');
    assert.equal(bubbles.length, 3);
    assert.equal(bubbles[0], `Book a flight to Lisbon ${SCRIPT}`, 'stored markup shows as its characters');
    assert.equal(bubbles[2], IMG);
    assert.match(await page.textContent('#view .event.role-assistant'), /flights\.search/);
    assert.match(await page.textContent('#view .event.role-assistant'), /\/data\/map\.png/);
    assert.match(await page.textContent('#view .event.role-assistant'), /input_tokens 40/);
    const scopes = await texts('#view .scopes pre');
    assert.match(scopes[0], /"step": 2/);
    assert.match(scopes[1], /"lang": "pt"/);
    assert.match(scopes[2], /"currency": "EUR"/);
    assert.match(await page.textContent('#view'), /Alice plans a trip to Lisbon\./);
    assert.match(await page.textContent('#view'), /#1–#3 \(3 events\)/);
    await page.waitForSelector('#view .track-events td >> text="ms":12');
    assert.equal(await page.$$eval('#view script, #view img', (n) => n.length), 0);
    await shot('session');
    if (process.env.MNEMO_UI_UPDATE_DOCS) {
      copyFileSync(join(SHOTS, 'session.png'), new URL('../../docs/console.png', import.meta.url).pathname);
    }
  });

  test('a session\'s track opens from its name, by a link that names it', async () => {
    await open('#/apps/shop/users/alice/sessions/trip');
    await shown('session');
    await page.click('#view .tracks a:text("ui")');
    await page.waitForURL(/\/sessions\/trip\?track=ui$/);
    await page.waitForSelector('#view .track-events h4 >> text=ui');
    assert.deepEqual(await texts('#view .track-events td:nth-child(3)'), ['{"clicked":"book"}', '{"clicked":"pay"}']);
    assert.equal(await page.$$eval('#view .tracks a.active', (n) => n.map((a) => a.textContent).join()), 'ui');
    await open('#/apps/shop/users/alice/sessions/old-chat');
    await shown('session');
    await page.waitForSelector('#view .tracks .empty >> text=This session has no track.');
  });

  test('transcript search marks the matched words', async () => {
    await open('#/apps/shop/search?q=flights%20lisbon');
    await shown('search');
    const marks = await texts('#view .excerpt mark');
    assert.ok(marks.length >= 2, `marks: ${marks}`);
    for (const word of marks) assert.match(word, /^(flights?|lisbon)$/i);
    assert.match(await page.textContent('#view .result h4'), /alice \/ trip/);
    await shot('search');
  });

  test('memories filter by metadata and status', async () => {
    await open('#/apps/shop/users/alice/memories?metadata=topic%3Dtravel');
    await shown('memories');
    const rows = await texts('#view table tbody tr td:first-child');
    assert.deepEqual(rows.sort(), ['evil', 'seat']);
    assert.match(await page.textContent('#view'), new RegExp(IMG.replace(/[()]/g, '\\$&')));
    await open('#/apps/shop/users/alice/memories?status=ready');
    await shown('memories');
    await page.waitForSelector('#view .empty');
    await shot('memories');
  });

  test('the recall playground ranks the constructed case and match=all narrows it', async () => {
    await open('#/apps/shop/recall?q=aisle%20seat%20flights&mode=keyword&user=carol');
    await shown('recall');
    assert.equal(await page.textContent('#view .mode'), 'keyword');
    const rows = await page.$$eval('#view table tbody tr', (trs) => trs.map((tr) =>
      [...tr.querySelectorAll('td')].map((td) => td.textContent.trim())));
    assert.deepEqual(rows.map((r) => r[2]), ['aisle seat on flights', 'aisle', 'window seat please']);
    assert.deepEqual(rows.map((r) => r[4]), ['1', '2', '3'], 'keyword_rank');
    assert.deepEqual(rows.map((r) => r[5]), ['—', '—', '—'], 'vector_rank: no vectors');
    await shot('recall');
    await page.check('#view input[name=match]');
    await page.click('#view form button[type=submit]');
    await page.waitForFunction(() => document.querySelectorAll('#view table tbody tr').length === 1);
    assert.match(page.url(), /match=all/);
    assert.equal(await page.textContent('#view table tbody tr td:nth-child(3)'), 'aisle seat on flights');
  });

  test('lanes show the configured reset policies and the one each lane follows', async () => {
    await open('#/apps/shop/lanes');
    await shown('lanes');
    assert.match(await page.textContent('#view .policies'), /time zone UTC/);
    const policies = await page.$$eval('#view .policies tbody tr', (trs) => trs.map((tr) =>
      [...tr.querySelectorAll('td')].map((td) => td.textContent.trim())));
    assert.deepEqual(policies, [
      ['override 1', 'platform telegram, chat type dm', 'idle', 'idle after 60 min'],
      ['default', 'every other lane', 'daily', 'daily at 03:00; notify'],
    ]);
    const lanes = await page.$$eval('#view .paged tbody tr', (trs) => Object.fromEntries(trs.map((tr) => {
      const cells = [...tr.querySelectorAll('td')].map((td) => td.textContent.trim());
      return [cells[0], { user: cells[1], policy: cells[5], did: cells[6] }];
    })));
    assert.deepEqual(lanes['telegram:dm:42'],
      { user: 'bob', policy: 'override 1: idle after 60 min', did: '—' });
    assert.deepEqual(lanes['slack:group:C1'],
      { user: 'bob', policy: 'default: daily at 03:00; notify', did: 'auto reset: suspended, fresh reset' });
    await shot('lanes');
  });

  test('deleting a memory and a session asks first, then they are gone', async () => {
    await open('#/apps/shop/users/alice/memories');
    await shown('memories');
    await page.locator('#view tr', { hasText: 'Drinks green tea' }).locator('button.danger').click();
    await page.waitForFunction(() => ![...document.querySelectorAll('#view td')].some((td) => td.textContent === 'tea'));
    assert.equal((await fetch(`${daemon.base}/v1/apps/shop/users/alice/memories/tea`,
      { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } })).status, 404);
    await open('#/apps/shop/users/alice/sessions/old-chat');
    await shown('session');
    await page.click('#view button.danger');
    await page.waitForURL(/#\/apps\/shop\/users\/alice$/);
    assert.equal((await fetch(`${daemon.base}/v1/apps/shop/users/alice/sessions/old-chat`,
      { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } })).status, 404);
  });

  test('live charts read /metrics every few seconds', async () => {
    await open('#/metrics?every=1');
    await shown('metrics');
    await page.waitForFunction(() => Number(document.querySelector('#view section')?.dataset.readings) >= 2,
      null, { timeout: 15000 });
    assert.equal(await page.$$eval('#view .chart canvas', (n) => n.length), 4);
    assert.deepEqual(await texts('#view .u-title'),
      ['Requests per second', 'Latency (ms)', 'Errors per second', 'Embed queue']);
    await shot('metrics');
  });

  test('a deep link opened in a new tab asks for the token, then shows its view', async () => {
    const tab = await browser.newPage();
    const tabErrors = [];
    tab.on('pageerror', (error) => tabErrors.push(error.message));
    await tab.goto(`${daemon.base}/ui/#/apps/shop/users/alice/sessions/trip`);
    await tab.waitForSelector('#view .error >> text=refused the token');
    await tab.fill('#token', SHOP_TOKEN);
    await tab.click('#token-form button[type=submit]');
    await tab.waitForSelector('#view[data-view="session"] .event');
    assert.equal(await tab.evaluate(() => sessionStorage.getItem('mnemod.token')), SHOP_TOKEN);
    assert.ok(!tab.url().includes(SHOP_TOKEN), 'the token never goes into a URL');
    assert.equal(await tab.evaluate(() => document.cookie), '');
    await tab.close();
    assert.deepEqual(tabErrors, []);
  });

  test('no stored markup ran and nothing failed in the page', () => {
    assert.deepEqual(dialogs, []);
    assert.deepEqual(errors.filter((e) => !/status of 40[13]/.test(e)), []);
  });
});

// The recall playground's semantic and hybrid modes, with an embedder whose
// vectors the test chose (table_embedder.mjs): the query is [1, 0, 0], so
// each memory's similarity is its first coordinate.
describe('recall playground with an embedder', () => {
  const QUERY = 'a quiet place to sleep';
  const MEMORIES = {
    'earplugs at night': [0.96, 0.28, 0],        // closest vector, no word of the query
    'quiet hotel room': [0.6, 0.8, 0],           // one word (quiet), second vector
    'a place to sleep on the train': [0.28, 0.96, 0],  // two words (place, sleep), farthest vector
  };
  let embedder;
  let daemon;
  let browser;
  let page;
  const errors = [];

  before(async () => {
    embedder = await startTableEmbedder({ [QUERY]: [1, 0, 0], ...MEMORIES });
    daemon = await startDaemon(
      `memory:\n  embedder: {kind: http, url: "${embedder.url}", model: table, timeout: 5s}\n`);
    await api(daemon.base, 'POST', '/v1/apps/shop/users/dave/memories', {
      memories: Object.keys(MEMORIES).map((text) => ({ text })), wait: true,
    });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${daemon.base}/ui/#/apps`);
    await page.fill('#token', SHOP_TOKEN);
    await page.click('#token-form button[type=submit]');
  });

  after(async () => {
    await browser?.close();
    const exit = await daemon?.stop();
    await embedder?.close();
    assert.equal(exit, 'exit 0', `mnemod did not stop cleanly:\n${daemon?.log()}`);
  });

  // The playground's rows for this mode: [text, score, keyword_rank, vector_rank, similarity].
  async function recall(mode) {
    await page.goto(`${daemon.base}/ui/#/apps/shop/recall?q=${encodeURIComponent(QUERY)}&mode=${mode}&user=dave`);
    await page.waitForSelector('#view[data-view="recall"] table');
    assert.equal(await page.textContent('#view .mode'), mode);
    return page.$$eval('#view table tbody tr', (trs) => trs.map((tr) =>
      [...tr.querySelectorAll('td')].slice(2, 7).map((td) => td.textContent.trim())));
  }

  test('semantic ranks by similarity alone', async () => {
    const rows = await recall('semantic');
    assert.deepEqual(rows.map((r) => r[0]), ['earplugs at night', 'quiet hotel room', 'a place to sleep on the train']);
    assert.deepEqual(rows.map((r) => r[4]), ['0.960', '0.600', '0.280'], 'similarity');
    assert.deepEqual(rows.map((r) => r[3]), ['1', '2', '3'], 'vector_rank');
    assert.deepEqual(rows.map((r) => r[2]), ['—', '—', '—'], 'keyword_rank: semantic has none');
  });

  test('hybrid fuses both lists: two words and the farthest vector beat the closest vector alone', async () => {
    const rows = await recall('hybrid');
    // score = sum of 1 / (5 + rank): train 1/6 + 1/8, hotel 1/7 + 1/7, earplugs 1/6.
    assert.deepEqual(rows, [
      ['a place to sleep on the train', (1 / 6 + 1 / 8).toFixed(4), '1', '3', '0.280'],
      ['quiet hotel room', (2 / 7).toFixed(4), '2', '2', '0.600'],
      ['earplugs at night', (1 / 6).toFixed(4), '—', '1', '0.960'],
    ]);
    await page.screenshot({ path: join(SHOTS, 'recall-hybrid.png'), fullPage: true });
  });

  test('keyword ranks by the words alone', async () => {
    const rows = await recall('keyword');
    assert.deepEqual(rows.map((r) => r[0]), ['a place to sleep on the train', 'quiet hotel room']);
    assert.deepEqual(rows.map((r) => r[3]), ['—', '—'], 'vector_rank: keyword has none');
  });

  test('the embedder was asked for the memories and the query, and nothing failed in the page', () => {
    assert.deepEqual([...new Set(embedder.texts)].sort(), [QUERY, ...Object.keys(MEMORIES)].sort());
    assert.deepEqual(errors, []);
  });
});

describe('web console off the loopback', () => {
  const address = Object.values(networkInterfaces()).flat().find((a) => a.family === 'IPv4' && !a.internal)?.address;

  test('is refused on a non-loopback address unless server.ui is true', { skip: !address && 'no non-loopback address' },
    async () => {
      for (const [ui, status] of [[null, 404], [true, 200]]) {
        const daemon = await startDaemon('', { listen: '0.0.0.0', ui, admin: ADMIN_TOKEN });
        try {
          const port = new URL(daemon.base).port;
          assert.equal((await fetch(`http://${address}:${port}/ui/`)).status, status, `server.ui ${ui}`);
          assert.equal((await fetch(`${daemon.base}/ui/`)).status, 200, 'loopback always');
        } finally {
          await daemon.stop();
        }
      }
    });
});
