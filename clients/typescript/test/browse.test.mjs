// The browsing routes against a real mnemod (memory and sqlite storage): the
// apps with their counts (admin only), an app's users by latest activity, a
// session's tracks by name, and the reset policies as the daemon runs them.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { MnemoClient, NotFound, PermissionDenied } from '../dist/client-only.js';
import { eachBackend, unique } from './harness.mjs';

const ADMIN_TOKEN = 'browse-admin';
const RESET =
  'reset: {timezone: Europe/Berlin, default: {mode: both, at_hour: 3},' +
  ' overrides: [{match: {platform: telegram, chat_type: dm}, policy: {mode: idle, idle_minutes: 60}}]}\n';

const collect = async (iterable) => {
  const items = [];
  for await (const item of iterable) items.push(item);
  return items;
};

eachBackend(
  'browse',
  (ctx) => {
    test('apps: every app with its counts for an admin token; an app token is refused', async () => {
      const { client } = ctx;
      await client.createSession('shop', 'u1', { id: 's1' });
      await client.appendEvents('shop', 'u1', 's1', [{ author: 'user', content: { text: 'hi' } }]);
      const admin = new MnemoClient({ url: ctx.daemon.base, token: ADMIN_TOKEN });
      const apps = Object.fromEntries((await admin.listApps()).map((app) => [app.app, app]));
      assert.deepEqual(
        [apps.shop.configured, apps.shop.users, apps.shop.sessions, apps.shop.events],
        [true, 1, 1, 1],
      );
      assert.equal(typeof apps.shop.last_active_at, 'string');
      assert.deepEqual([apps.bank.sessions, apps.bank.last_active_at], [0, null]);
      await assert.rejects(client.listApps(), PermissionDenied);
    });

    test('users: most recently active first, by pages', async () => {
      const { client } = ctx;
      const [older, newer] = [unique('u'), unique('u')];
      await client.createSession('shop', older, { id: 's' });
      await client.createSession('shop', newer, { id: 's' });
      await client.appendEvents('shop', older, 's', [{ author: 'user', content: { text: 'back again' } }]);
      const page = await client.listUsers('shop', { limit: 2 });
      assert.deepEqual(
        page.users.map((u) => [u.user, u.events]),
        [
          [older, 1],
          [newer, 0],
        ],
      );
      assert.ok(page.next_page_token);
      const users = await collect(client.iterUsers('shop', { limit: 1 }));
      assert.deepEqual(users.slice(0, 2).map((u) => u.user), [older, newer]);
    });

    test("tracks: a session's track names with counts and last event; a missing session is NotFound", async () => {
      const { client } = ctx;
      const user = unique('u');
      await client.createSession('shop', user, { id: 's' });
      let last;
      for (const track of ['ui', 'audit', 'audit', 'tool:log']) {
        last = await client.appendTrack('shop', user, 's', track, { on: track }, '2026-11-21T10:05:00Z');
      }
      const page = await client.listTracks('shop', user, 's', { limit: 2 });
      assert.deepEqual(
        page.tracks.map((t) => [t.track, t.events, t.last_seq]),
        [
          ['audit', 2, 2],
          ['tool:log', 1, 1],
        ],
      );
      assert.equal(page.tracks[1].last_timestamp, last.timestamp);
      const tracks = await collect(client.iterTracks('shop', user, 's', { limit: 2 }));
      assert.deepEqual(
        tracks.map((t) => t.track),
        ['audit', 'tool:log', 'ui'],
      );
      await assert.rejects(client.listTracks('shop', user, 'missing'), NotFound);
    });

    test('reset policies: the config reset section, each override merged over the default', async () => {
      const policies = await ctx.client.getResetPolicies('shop');
      assert.equal(policies.timezone, 'Europe/Berlin');
      assert.equal(policies.default.at_hour, 3);
      assert.deepEqual(policies.overrides, [
        {
          match: { platform: 'telegram', chat_type: 'dm' },
          policy: { mode: 'idle', at_hour: 3, idle_minutes: 60, notify: policies.default.notify },
        },
      ]);
    });
  },
  { extra: RESET, admin: ADMIN_TOKEN },
);
