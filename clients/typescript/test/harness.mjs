// The test side of every suite here: a real mnemod per backend (the daemon
// helper of tests/mcp, so both suites start it the same way), a client on it,
// and a proxy that can lose answers or answer 503 to show the retries.
import { createServer, request } from 'node:http';
import { after, before, describe } from 'node:test';

import { MnemoClient } from '../dist/client-only.js';
import { SHOP_TOKEN, startDaemon } from '../../../tests/mcp/daemon.mjs';

export { SHOP_TOKEN, BANK_TOKEN } from '../../../tests/mcp/daemon.mjs';

export const BACKENDS = (process.env.MNEMO_TS_BACKENDS ?? 'memory,sqlite').split(',');

// describe() once per backend; `ctx.daemon` and `ctx.client` are set before the tests run;
// `admin` is an admin token for the daemon to accept.
// The app bank keeps at most 8 events per session, for the tests of eviction.
export function eachBackend(name, body, { extra = '', admin = null } = {}) {
  for (const storage of BACKENDS) {
    describe(`${name} [${storage}]`, () => {
      const ctx = { storage };
      before(async () => {
        ctx.daemon = await startDaemon(extra, {
          storage,
          maxBody: '4MiB',
          apps: { bank: 'limits: {event_limit: 8}' },
          admin,
        });
        ctx.client = new MnemoClient({ url: ctx.daemon.base, token: SHOP_TOKEN });
      });
      after(async () => {
        const exit = await ctx.daemon?.stop();
        if (exit !== 'exit 0') throw new Error(`mnemod did not stop cleanly (${exit}):\n${ctx.daemon.log()}`);
      });
      body(ctx);
    });
  }
}

// A unique name per test, so tests of one daemon never see each other's data.
let counter = 0;
export const unique = (prefix) => `${prefix}-${process.pid}-${++counter}`;

// A proxy in front of the daemon. `faults` is consumed one per matching
// request: 'lose' forwards the request and then cuts the connection before the
// answer, '503' answers 503 with Retry-After: 0 without forwarding.
export async function faultyProxy(target, match) {
  const faults = [];
  const seen = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const fault = match(req) ? faults.shift() : undefined;
      seen.push(`${req.method} ${req.url}${fault ? ` (${fault})` : ''}`);
      if (fault === '503') {
        res.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '0' });
        res.end(JSON.stringify({ error: { code: 'unavailable', message: 'draining', details: {} } }));
        return;
      }
      const url = new URL(req.url, target);
      const upstream = request(url, { method: req.method, headers: req.headers }, (answer) => {
        const body = [];
        answer.on('data', (chunk) => body.push(chunk));
        answer.on('end', () => {
          if (fault === 'lose') {
            req.socket.destroy();
            return;
          }
          res.writeHead(answer.statusCode, answer.headers);
          res.end(Buffer.concat(body));
        });
      });
      upstream.end(Buffer.concat(chunks));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    faults,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}
