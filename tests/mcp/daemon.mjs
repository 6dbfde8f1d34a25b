// The real mnemod for the MCP tests: a config in a scratch folder, a free
// loopback port, started and waited for (/healthz), stopped with SIGTERM.
// run.sh hands over the binary and plugin folder of the build under test.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const SHOP_TOKEN = 'shop-token';
export const BANK_TOKEN = 'bank-token';

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// Apps shop and bank, each with its own token; `extra` is more top-level YAML;
// `storage` is the plugin (memory, or sqlite in the scratch folder); `apps`
// adds a line of settings to an app, e.g. {bank: 'limits: {event_limit: 8}'};
// `admin` an admin token; `listen` the address (a loopback one by default);
// `ui` server.ui (auto when null).
export async function startDaemon(
  extra = '',
  { storage = 'memory', maxBody = '64KiB', apps = {}, admin = null, listen = '127.0.0.1', ui = null } = {},
) {
  const settings = (app) => (apps[app] ? `    ${apps[app]}\n` : '');
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-mcp-'));
  const port = await freePort();
  const config = join(dir, 'mnemod.yaml');
  writeFileSync(
    config,
    `server:\n  listen: ["${listen}:${port}"]\n  admin_socket: ${dir}/admin.sock\n  max_body_bytes: ${maxBody}\n` +
      (ui === null ? '' : `  ui: ${ui}\n`) +
      `auth:\n  required: true\n${admin ? `  admin_tokens: [${admin}]\n` : ''}` +
      `storage:\n  plugin: ${storage}\n  plugin_dir: ${process.env.MNEMO_PLUGIN_DIR}\n` +
      (storage === 'sqlite' ? `  options: {path: ${dir}/mnemo.db}\nmemory:\n  index_dir: ${dir}/memory-index\n` : '') +
      `apps:\n  shop:\n    tokens: [${SHOP_TOKEN}]\n${settings('shop')}  bank:\n    tokens: [${BANK_TOKEN}]\n${settings('bank')}` +
      extra,
  );
  const output = [];
  const child = spawn(process.env.MNEMO_MNEMOD, ['--config', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  const log = () => Buffer.concat(output).toString();
  const base = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; ++attempt) {
    if (child.exitCode !== null) throw new Error(`mnemod exited with ${child.exitCode} during start-up:\n${log()}`);
    if (attempt === 600) throw new Error(`mnemod did not answer /healthz on port ${port}:\n${log()}`);
    try {
      if ((await fetch(`${base}/healthz`)).status === 200) break;
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  return {
    base,
    log,
    // The MCP endpoint of one user of one app.
    url: (app = 'shop', user = 'u1') => new URL(`${base}/v1/apps/${app}/users/${user}/mcp`),
    // SIGTERM; resolves to how it exited ("exit 0" when clean: a sanitizer report or a crash is not).
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 15000);
        await exited;
        clearTimeout(killer);
      }
      rmSync(dir, { recursive: true, force: true });
      return child.signalCode ? `signal ${child.signalCode}` : `exit ${child.exitCode}`;
    },
  };
}
