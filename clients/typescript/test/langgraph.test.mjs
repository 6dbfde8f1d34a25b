// The LangGraph adapters beyond LangGraph's own suite: MnemoCheckpointSaver's
// mapping onto mnemod (thread ids that are not mnemod names, isolation by
// user, TTL, pruning) and MnemoStore over memories (namespaces, search with
// recall, filter operators, namespace listing).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { emptyCheckpoint, uuid6 } from '@langchain/langgraph-checkpoint';

import { MnemoCheckpointSaver, MnemoStore } from '../dist/index.js';
import { BANK_TOKEN, SHOP_TOKEN, eachBackend, unique } from './harness.mjs';

const meta = (step) => ({ source: 'loop', step, parents: {} });

// Puts a chain of checkpoints on a thread: each sets channel `step` and the first also `messages`.
async function chain(saver, threadId, count) {
  let config = { configurable: { thread_id: threadId, checkpoint_ns: '' } };
  const ids = [];
  for (let i = 0; i < count; ++i) {
    const checkpoint = {
      ...emptyCheckpoint(),
      id: uuid6(i),
      channel_values: { messages: ['hi'], step: i },
      channel_versions: { messages: 1, step: i + 1 },
    };
    const changed = i === 0 ? { messages: 1, step: 1 } : { step: i + 1 };
    config = await saver.put(config, checkpoint, meta(i), changed);
    await saver.putWrites(config, [['step', i + 1]], `task-${i}`);
    ids.push(checkpoint.id);
  }
  return ids;
}

eachBackend('langgraph', (ctx) => {
  const saver = (user = unique('lg'), extra = {}) =>
    new MnemoCheckpointSaver({ url: ctx.daemon.base, token: SHOP_TOKEN, app: 'shop', user, ...extra });

  test('saver: any thread id works, and savers of different users never see each other', async () => {
    const user = unique('lg');
    const a = saver(user);
    const odd = ['thread/with spaces_and_ü', '.', 'x'.repeat(300), 'plain-id'];
    for (const threadId of odd) await chain(a, threadId, 2);
    for (const threadId of odd) {
      const tuple = await a.getTuple({ configurable: { thread_id: threadId } });
      assert.equal(tuple.config.configurable.thread_id, threadId);
      assert.deepEqual(tuple.checkpoint.channel_values, { messages: ['hi'], step: 1 });
      assert.deepEqual(tuple.pendingWrites, [['task-1', 'step', 2]]);
    }
    // A session of another client of the same user is no thread.
    await ctx.client.appendEvent(
      'shop',
      user,
      'chat',
      { author: 'user', content: { lg: 'checkpoint' } },
      { create_if_missing: true },
    );
    const listed = [];
    for await (const tuple of a.list({})) listed.push(tuple.config.configurable.thread_id);
    assert.deepEqual([...new Set(listed)].sort(), [...odd].sort());
    assert.equal(a.sessionId('plain-id'), 'plain-id');
    assert.ok(a.sessionId('x'.repeat(300)).length <= 128);
    const other = saver();
    assert.equal(await other.getTuple({ configurable: { thread_id: 'plain-id' } }), undefined);
    await a.deleteThread('plain-id');
    assert.equal(await a.getTuple({ configurable: { thread_id: 'plain-id' } }), undefined);
    assert.ok(await a.getTuple({ configurable: { thread_id: '.' } }));
  });

  test('saver: ttlSeconds gives the thread a TTL that each write refreshes', async () => {
    const user = unique('lg');
    const s = saver(user, { ttlSeconds: 3600 });
    await chain(s, 't', 1);
    const { session } = await ctx.client.getSession('shop', user, 't');
    assert.ok(session.expires_at, 'the thread session expires');
    const left = Date.parse(session.expires_at) - Date.now();
    assert.ok(left > 3500e3 && left <= 3600e3, `expires in ${left} ms`);
    assert.equal(session.metadata.langgraph_thread_id, 't');
  });

  test('saver: prune keeps the newest checkpoints whole and drops the rest', async () => {
    const s = saver();
    const ids = await chain(s, 't', 6);
    assert.equal(await s.prune('t', { keepLast: 2 }), 4);
    const left = [];
    for await (const tuple of s.list({ configurable: { thread_id: 't' } })) left.push(tuple);
    assert.deepEqual(
      left.map((t) => t.checkpoint.id),
      [ids[5], ids[4]],
    );
    // `messages` was written only by the first checkpoint, which is gone: its value moved.
    assert.deepEqual(left[1].checkpoint.channel_values, { messages: ['hi'], step: 4 });
    assert.deepEqual(left[0].checkpoint.channel_values, { messages: ['hi'], step: 5 });
    assert.deepEqual(left[0].pendingWrites, [['task-5', 'step', 6]]);
    assert.equal(await s.getTuple({ configurable: { thread_id: 't', checkpoint_id: ids[0] } }), undefined);
    assert.equal(await s.prune('t', { keepLast: 2 }), 0);
    await chain(s, 't', 1);
    assert.equal(await s.prune('missing', { keepLast: 1 }), 0);
    await assert.rejects(s.prune('t', { keepLast: 0 }), /keepLast/);
  });

  test('saver: a saver that read a thread sees what others wrote, pruned or deleted since', async () => {
    const user = unique('lg');
    const [reader, writer] = [saver(user), saver(user)];
    const ids = await chain(writer, 't', 3);
    const latest = async () => (await reader.getTuple({ configurable: { thread_id: 't' } }))?.checkpoint.id;
    const count = async () => {
      let n = 0;
      for await (const _ of reader.list({ configurable: { thread_id: 't' } })) ++n;
      return n;
    };
    assert.equal(await latest(), ids[2]);
    const more = await chain(writer, 't', 2); // appended: read incrementally
    assert.equal(await latest(), more[1]);
    assert.equal(await count(), 5);
    await writer.prune('t', { keepLast: 2 }); // rewritten: read again whole
    assert.equal(await count(), 2);
    await writer.deleteThread('t');
    assert.equal(await latest(), undefined);
    const again = await chain(writer, 't', 1); // a new session under the same id
    assert.equal(await latest(), again[0]);
    assert.equal(await count(), 1);
  });

  test('saver: with an event limit, snapshotEvery keeps the newest checkpoints whole', async () => {
    // App bank evicts beyond 8 events (see below); each step here is 2 events.
    const unsafe = new MnemoCheckpointSaver({
      url: ctx.daemon.base,
      token: BANK_TOKEN,
      app: 'bank',
      user: unique('lg'),
    });
    await chain(unsafe, 't', 8);
    const lost = await unsafe.getTuple({ configurable: { thread_id: 't' } });
    assert.deepEqual(lost.checkpoint.channel_values, { step: 7 }, 'messages was stored only in an evicted event');
    const safe = new MnemoCheckpointSaver({
      url: ctx.daemon.base,
      token: BANK_TOKEN,
      app: 'bank',
      user: unique('lg'),
      snapshotEvery: 3,
    });
    await chain(safe, 't', 8);
    const whole = await safe.getTuple({ configurable: { thread_id: 't' } });
    assert.deepEqual(whole.checkpoint.channel_values, { messages: ['hi'], step: 7 });
    assert.throws(() => saver(unique('lg'), { snapshotEvery: 0 }), /snapshotEvery/);
  });

  const store = (user = unique('st'), extra = {}) =>
    new MnemoStore({ url: ctx.daemon.base, token: SHOP_TOKEN, app: 'shop', user, ...extra });

  test('store: put, get, update, delete; namespaces of any labels', async () => {
    const s = store();
    await s.put(['users', 'ann', 'prefs'], 'seat', { text: 'Prefers aisle seats', rank: 2 });
    const item = await s.get(['users', 'ann', 'prefs'], 'seat');
    assert.deepEqual(item.value, { text: 'Prefers aisle seats', rank: 2 });
    assert.deepEqual(item.namespace, ['users', 'ann', 'prefs']);
    assert.ok(item.createdAt instanceof Date);
    await s.put(['users', 'ann', 'prefs'], 'seat', { text: 'Prefers window seats', rank: 3 });
    assert.equal((await s.get(['users', 'ann', 'prefs'], 'seat')).value.rank, 3);
    const odd = ['spaces here', 'ümlaut/slash', 'x'.repeat(200)];
    await s.put(odd, 'k', { a: 1 });
    assert.deepEqual((await s.get(odd, 'k')).value, { a: 1 });
    assert.equal(await s.get(['users', 'bob'], 'seat'), null);
    await s.delete(['users', 'ann', 'prefs'], 'seat');
    assert.equal(await s.get(['users', 'ann', 'prefs'], 'seat'), null);
  });

  test('store: search by query uses recall, within a namespace prefix and filters', async () => {
    const s = store();
    await s.put(['docs', 'travel'], 'a', { text: 'window seat on long flights', stars: 5, tag: 'seat' });
    await s.put(['docs', 'travel'], 'b', { text: 'aisle seat for short flights', stars: 2, tag: 'seat' });
    await s.put(['docs', 'food'], 'c', { text: 'vegetarian meal on flights', stars: 4, tag: 'meal' });
    await s.put(['other'], 'd', { text: 'flights are delayed', stars: 1 });
    const all = await s.search(['docs'], { query: 'flights' });
    assert.deepEqual(all.map((i) => i.key).sort(), ['a', 'b', 'c']);
    assert.ok(all.every((i) => typeof i.score === 'number'));
    const travel = await s.search(['docs', 'travel'], { query: 'seat' });
    assert.deepEqual(travel.map((i) => i.key).sort(), ['a', 'b']);
    const good = await s.search(['docs'], { query: 'flights', filter: { stars: { $gte: 4 } } });
    assert.deepEqual(good.map((i) => i.key).sort(), ['a', 'c']);
    const seats = await s.search(['docs'], { query: 'flights', filter: { tag: 'seat', stars: { $lt: 5 } } });
    assert.deepEqual(
      seats.map((i) => i.key),
      ['b'],
    );
    const listing = await s.search(['docs'], { limit: 2 });
    assert.equal(listing.length, 2);
    const rest = await s.search(['docs'], { limit: 2, offset: 2 });
    assert.equal(rest.length, 1);
    assert.deepEqual(
      await s.search(['docs'], { filter: { tag: { $in: ['meal'] } } }).then((r) => r.map((i) => i.key)),
      ['c'],
    );
    const keyOnly = store();
    await keyOnly.put(['n'], 'only-the-key', { secret: 'hidden words' }, false);
    assert.deepEqual(await keyOnly.search(['n'], { query: 'hidden' }), []);
    assert.equal((await keyOnly.search(['n'], { query: 'only-the-key' })).length, 1);
  });

  test('store: listNamespaces with prefix, suffix, depth, limit and offset', async () => {
    const s = store();
    for (const ns of [
      ['a', 'x', '1'],
      ['a', 'y', '1'],
      ['a', 'y', '2'],
      ['b', 'x', '1'],
    ])
      await s.put(ns, 'k', { v: 1 });
    assert.deepEqual(await s.listNamespaces(), [
      ['a', 'x', '1'],
      ['a', 'y', '1'],
      ['a', 'y', '2'],
      ['b', 'x', '1'],
    ]);
    assert.deepEqual(await s.listNamespaces({ prefix: ['a'] }), [
      ['a', 'x', '1'],
      ['a', 'y', '1'],
      ['a', 'y', '2'],
    ]);
    assert.deepEqual(await s.listNamespaces({ suffix: ['x', '1'] }), [
      ['a', 'x', '1'],
      ['b', 'x', '1'],
    ]);
    assert.deepEqual(await s.listNamespaces({ prefix: ['*', 'y'] }), [
      ['a', 'y', '1'],
      ['a', 'y', '2'],
    ]);
    assert.deepEqual(await s.listNamespaces({ maxDepth: 2 }), [
      ['a', 'x'],
      ['a', 'y'],
      ['b', 'x'],
    ]);
    assert.deepEqual(await s.listNamespaces({ limit: 1, offset: 1 }), [['a', 'y', '1']]);
  });
});
