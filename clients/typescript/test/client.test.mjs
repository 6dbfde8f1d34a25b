// MnemoClient against a real mnemod (memory and sqlite storage): every group
// of routes, errors as classes, pagination, auth, and the retries through a
// proxy that loses answers or answers 503.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  AlreadyExists,
  ApiError,
  Conflict,
  ConnectionFailed,
  InvalidArgument,
  MnemoClient,
  NotFound,
  PermissionDenied,
  Unauthenticated,
  Unavailable,
} from '../dist/client-only.js';
import { BANK_TOKEN, SHOP_TOKEN, eachBackend, faultyProxy, unique } from './harness.mjs';

const collect = async (iterable) => {
  const items = [];
  for await (const item of iterable) items.push(item);
  return items;
};

eachBackend('client', (ctx) => {
  test('sessions: create, get, list by pages, delete; errors by class', async () => {
    const { client } = ctx;
    const user = unique('u');
    const created = await client.createSession('shop', user, {
      id: 's1',
      title: 'first',
      metadata: { platform: 'web' },
      state: { cart: 1 },
    });
    assert.equal(created.version, 1);
    assert.deepEqual(created.state, { cart: 1 });
    await assert.rejects(client.createSession('shop', user, { id: 's1' }), AlreadyExists);
    for (let i = 2; i <= 5; ++i) await client.createSession('shop', user, { id: `s${i}` });
    const page = await client.listSessions('shop', user, { limit: 2 });
    assert.equal(page.sessions.length, 2);
    assert.ok(page.next_page_token);
    const all = await collect(client.iterSessions('shop', user, { limit: 2 }));
    assert.deepEqual(all.map((s) => s.id).sort(), ['s1', 's2', 's3', 's4', 's5']);
    const appWide = await collect(client.iterSessions('shop', null, { user, limit: 3 }));
    assert.equal(appWide.length, 5);
    const got = await client.getSession('shop', user, 's1');
    assert.equal(got.session.title, 'first');
    assert.deepEqual(got.events, []);
    await client.deleteSession('shop', user, 's1');
    const missing = await client.getSession('shop', user, 's1').catch((e) => e);
    assert.ok(missing instanceof NotFound, String(missing));
    assert.equal(missing.status, 404);
    assert.equal(missing.code, 'not_found');
    assert.match(missing.requestId, /\S/);
    const bad = await client.createSession('shop', user, { id: 'no spaces' }).catch((e) => e);
    assert.ok(bad instanceof InvalidArgument);
    const counts = await client.purgeUser('shop', user);
    assert.equal(counts.sessions, 5);
  });

  test('events: ids assigned by the client, appends, pages, conflicts, rewrite, rewind', async () => {
    const { client } = ctx;
    const user = unique('u');
    await client.createSession('shop', user, { id: 's' });
    const answer = await client.appendEvents('shop', user, 's', [
      { author: 'user', content: { text: 'book a seat' } },
      { author: 'bot', content: { text: 'done: 12A' }, state_delta: { seat: '12A', 'app:promo': 'x' } },
    ]);
    assert.equal(answer.appended.length, 2);
    assert.match(answer.appended[0].id, /^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    assert.equal(answer.state.seat, '12A');
    const conflict = await client
      .appendEvent('shop', user, 's', { author: 'user', content: 'x' }, { expected_version: 1 })
      .catch((e) => e);
    assert.ok(conflict instanceof Conflict);
    assert.equal(conflict.currentVersion, answer.version);
    const many = Array.from({ length: 25 }, (_, i) => ({ author: i % 2 ? 'bot' : 'user', content: { text: `m${i}` } }));
    await client.appendEvents('shop', user, 's', many);
    const events = await collect(client.iterEvents('shop', user, 's', { limit: 10 }));
    assert.equal(events.length, 27);
    assert.deepEqual(
      events.map((e) => e.seq),
      Array.from({ length: 27 }, (_, i) => i + 1),
    );
    const onlyUsers = await client.listEvents('shop', user, 's', { role: ['user'], limit: 1000 });
    assert.ok(onlyUsers.events.every((e) => e.role === 'user'));
    const rewound = await client.rewind('shop', user, 's', 1);
    assert.equal(rewound.target_text, 'm24');
    const rewritten = await client.rewriteEvents('shop', user, 's', [{ author: 'user', content: { text: 'only' } }]);
    assert.equal(rewritten.replaced, 26);
    const created = await client.appendEvent(
      'shop',
      user,
      'fresh',
      { author: 'user', content: 'hi' },
      { create_if_missing: true },
    );
    assert.equal(created.appended[0].seq, 1);
    const session = await client.getSession('shop', user, 's', { num_recent_events: 5 });
    assert.deepEqual(
      session.events.map((e) => e.content),
      [{ text: 'only' }],
    );
  });

  test('state at three scopes, summaries, tracks and search', async () => {
    const { client } = ctx;
    const user = unique('u');
    await client.createSession('shop', user, { id: 's' });
    await client.appendEvents('shop', user, 's', [
      { author: 'user', content: { text: 'run git push --force on /srv/app' } },
      { author: 'bot', content: { text: 'pushed' } },
    ]);
    const patched = await client.patchSessionState('shop', user, 's', { step: 2, 'user:lang': 'de' });
    assert.equal(patched.state.step, 2);
    assert.equal((await client.getUserState('shop', user)).state.lang, 'de');
    await client.patchUserState('shop', user, { tz: 'UTC' });
    await client.deleteUserStateKey('shop', user, 'lang');
    assert.deepEqual((await client.getUserState('shop', user)).state, { tz: 'UTC' });
    const key = unique('k').replace(/-/g, '_');
    await client.patchAppState('shop', { [key]: 1 });
    assert.equal((await client.getAppState('shop')).state[key], 1);
    await client.deleteAppStateKey('shop', key);
    assert.equal((await client.getAppState('shop')).state[key], undefined);
    const summary = await client.postSummary('shop', user, 's', { text: 'pushed the app' });
    assert.equal(summary.up_to_seq, 2);
    assert.equal((await client.listSummaries('shop', user, 's'))[0].text, 'pushed the app');
    const fromCheckpoint = await client.getSession('shop', user, 's', { from_checkpoint: true });
    assert.equal(fromCheckpoint.summary.text, 'pushed the app');
    assert.deepEqual(fromCheckpoint.events, []);
    for (let i = 0; i < 3; ++i) await client.appendTrack('shop', user, 's', 'tools', { call: i });
    const track = await collect(client.iterTrack('shop', user, 's', 'tools', 2));
    assert.deepEqual(
      track.map((t) => t.payload),
      [{ call: 0 }, { call: 1 }, { call: 2 }],
    );
    const found = await client.search('shop', { q: 'git push --force', user });
    assert.equal(found.results[0].session.id, 's');
    assert.match(found.results[0].hits[0].excerpt, /git push --force/);
  });

  test('lanes: resolve, get, list, reset, switch, suspend, resume, turn complete', async () => {
    const { client } = ctx;
    const lane = unique('telegram:dm');
    const first = await client.resolveLane('shop', lane, { user: 'ann', platform: 'telegram', chat_type: 'dm' });
    assert.equal(first.created, true);
    const again = await client.resolveLane('shop', lane, { user: 'ann' });
    assert.equal(again.session.id, first.session.id);
    const reset = await client.resetLane('shop', lane);
    assert.notEqual(reset.session.id, first.session.id);
    assert.equal(reset.lane.is_fresh_reset, true);
    const switched = await client.switchLane('shop', lane, first.session.id);
    assert.equal(switched.lane.session_id, first.session.id);
    assert.equal((await client.resumePending('shop', lane, 'restart_timeout')).resume_pending, true);
    const done = await client.turnComplete('shop', lane, { input_tokens: 3 });
    assert.equal(done.resume_pending, false);
    assert.equal((await client.suspendLane('shop', lane)).suspended, true);
    assert.equal((await client.getLane('shop', lane)).suspended, true);
    const lanes = await collect(client.iterLanes('shop', { limit: 1 }));
    assert.ok(lanes.some((l) => l.lane === lane));
  });

  test('memories: write, dedupe, list, get, update, recall with filters, delete', async () => {
    const { client } = ctx;
    const user = unique('u');
    const written = await client.writeMemories('shop', user, [
      { id: 'pref', text: 'Prefers aisle seats', namespace: 'prefs', metadata: { kind: 'seat' } },
      { text: 'Lives in Berlin', metadata: { kind: 'home' } },
    ]);
    assert.deepEqual(
      written.map((m) => m.created),
      [true, true],
    );
    const dup = await client.writeMemory('shop', user, '  lives in   BERLIN ');
    assert.equal(dup.created, false);
    const listed = await collect(client.iterMemories('shop', user, { limit: 1 }));
    assert.equal(listed.length, 2);
    assert.equal((await client.getMemory('shop', user, 'pref')).namespace, 'prefs');
    const updated = await client.updateMemory('shop', user, 'pref', { text: 'Prefers window seats' });
    assert.equal(updated.text, 'Prefers window seats');
    const recalled = await client.recall('shop', { query: 'window seats', user, metadata: { kind: 'seat' } });
    assert.equal(recalled.mode, 'keyword');
    assert.deepEqual(
      recalled.memories.map((m) => m.id),
      ['pref'],
    );
    assert.equal(typeof recalled.memories[0].score, 'number');
    const none = await client.recall('shop', { query: 'window seats', user, metadata: { kind: 'home' } });
    assert.deepEqual(none.memories, []);
    assert.equal((await client.recallUser('shop', user, 'berlin')).memories.length, 1);
    await client.deleteMemory('shop', user, 'pref');
    await assert.rejects(client.getMemory('shop', user, 'pref'), NotFound);
  });

  test('operations: healthz, ready, info, metrics', async () => {
    const { client } = ctx;
    assert.deepEqual(await client.healthz(), { status: 'ok' });
    assert.equal(await client.ready(), true);
    assert.equal((await client.info()).storage.plugin, ctx.storage);
    assert.match(await client.metrics(), /mnemo_http_requests_total/);
  });

  test('auth: the bearer token is sent; a missing or foreign token raises its class', async () => {
    const anonymous = new MnemoClient({ url: ctx.daemon.base, token: '' });
    await assert.rejects(anonymous.listSessions('shop', 'u'), Unauthenticated);
    const bank = new MnemoClient({ url: ctx.daemon.base, token: BANK_TOKEN });
    await assert.rejects(bank.listSessions('shop', 'u'), PermissionDenied);
    assert.deepEqual((await bank.listSessions('bank', 'u')).sessions, []);
  });

  test('a retried append whose answer was lost is stored once', async () => {
    const proxy = await faultyProxy(ctx.daemon.base, (req) => req.method === 'POST' && req.url.endsWith('/events'));
    try {
      const client = new MnemoClient({ url: proxy.url, token: SHOP_TOKEN, backoffMs: 1 });
      const user = unique('u');
      await ctx.client.createSession('shop', user, { id: 's' });
      proxy.faults.push('lose');
      const answer = await client.appendEvents('shop', user, 's', [{ author: 'user', content: { text: 'once' } }]);
      assert.deepEqual(
        answer.appended.map((a) => a.seq),
        [1],
      );
      assert.equal(proxy.seen.filter((line) => line.startsWith('POST')).length, 2, proxy.seen.join('\n'));
      const { events } = await ctx.client.listEvents('shop', user, 's');
      assert.equal(events.length, 1);
      // A rewind is not safe to repeat: a lost answer raises instead of undoing two turns.
      const matchAll = await faultyProxy(ctx.daemon.base, () => true);
      matchAll.faults.push('lose');
      const strict = new MnemoClient({ url: matchAll.url, token: SHOP_TOKEN, backoffMs: 1 });
      await assert.rejects(strict.rewind('shop', user, 's'), ConnectionFailed);
      await matchAll.close();
    } finally {
      await proxy.close();
    }
  });

  test('429 and 503 are retried after Retry-After; out of retries raises the class', async () => {
    const proxy = await faultyProxy(ctx.daemon.base, () => true);
    try {
      const token = SHOP_TOKEN;
      const client = new MnemoClient({ url: proxy.url, token, retries: 2 });
      proxy.faults.push('503', '503');
      assert.deepEqual(await client.healthz(), { status: 'ok' });
      assert.equal(proxy.seen.length, 3);
      proxy.faults.push('503', '503', '503');
      const error = await client.info().catch((e) => e);
      assert.ok(error instanceof Unavailable, String(error));
      assert.ok(error instanceof ApiError);
      assert.equal(error.retryAfter, 0);
      assert.equal(error.attempts, 3);
    } finally {
      await proxy.close();
    }
  });
});

test('an unreachable daemon raises ConnectionFailed after the retries', async () => {
  const client = new MnemoClient({ url: 'http://127.0.0.1:1', retries: 1, backoffMs: 1 });
  const error = await client.healthz().catch((e) => e);
  assert.ok(error instanceof ConnectionFailed, String(error));
  assert.equal(error.attempts, 2);
  assert.match(error.message, /could not be reached/);
});
