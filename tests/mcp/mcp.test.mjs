// mnemod's MCP endpoint as an MCP client sees it: the official TypeScript
// SDK's Client over its StreamableHTTPClientTransport, against the real
// daemon. Every tool, its errors, auth, sessions, and bad input.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';

import { BANK_TOKEN, SHOP_TOKEN, startDaemon } from './daemon.mjs';

let daemon;
before(async () => {
  daemon = await startDaemon();
});
after(async () => {
  if (!daemon) return;
  const exit = await daemon.stop();
  assert.equal(exit, 'exit 0', `mnemod did not stop cleanly:\n${daemon.log()}`);
});

// A test whose failure shows what the daemon logged.
function it(name, body) {
  test(name, async () => {
    try {
      await body();
    } catch (error) {
      error.message += `\n--- mnemod log ---\n${daemon.log()}`;
      throw error;
    }
  });
}

function transport({ app = 'shop', user = 'u1', token = SHOP_TOKEN, sessionId } = {}) {
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  return new StreamableHTTPClientTransport(daemon.url(app, user), { requestInit: { headers }, sessionId });
}

async function connect(options = {}) {
  const client = new Client({ name: 'mnemod-tests', version: '1.0.0' });
  const t = transport(options);
  await client.connect(t);
  return { client, transport: t };
}

// The HTTP API, for setting up conversations the tools then read.
async function api(method, path, body) {
  const response = await fetch(`${daemon.base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${SHOP_TOKEN}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  assert.ok(response.ok, `${method} ${path}: ${response.status} ${await response.clone().text()}`);
  return response.status === 204 ? null : response.json();
}

async function conversation(user, id, texts) {
  await api('POST', `/v1/apps/shop/users/${user}/sessions`, { id, title: `chat ${id}` });
  const events = texts.map((text, i) => ({ author: i % 2 ? 'agent' : 'user', content: { text } }));
  await api('POST', `/v1/apps/shop/users/${user}/sessions/${id}/events`, { events });
}

// A raw POST to the endpoint, for what the SDK never sends.
async function post(body, { sessionId, token = SHOP_TOKEN, accept = 'application/json, text/event-stream' } = {}) {
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: accept };
  if (sessionId) headers['Mcp-Session-Id'] = sessionId;
  const response = await fetch(daemon.url(), { method: 'POST', headers, body });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

it('initialize negotiates the protocol and declares the tools capability', async () => {
  const { client, transport: t } = await connect();
  assert.equal(client.getServerVersion().name, 'mnemod');
  assert.match(client.getServerVersion().version, /^\d+\.\d+\.\d+$/);
  assert.ok(client.getServerCapabilities().tools, 'tools capability');
  assert.match(client.getInstructions(), /recall/);
  assert.match(t.sessionId, /^[0-9a-f]{32}$/);
  assert.equal(t.protocolVersion, LATEST_PROTOCOL_VERSION);
  await client.ping();
  await client.close();
});

it('an older client gets the version it asked for', async () => {
  const response = await post(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'old', version: '1' } },
    }),
  );
  assert.equal(response.status, 200);
  assert.equal(JSON.parse(response.text).result.protocolVersion, '2025-06-18');
  const unknown = await post(
    JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2099-01-01' } }),
  );
  assert.equal(JSON.parse(unknown.text).result.protocolVersion, '2025-11-25');
});

it('tools/list gives every tool with its input and output schema', async () => {
  const { client } = await connect();
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name).sort(), [
    'forget',
    'get_conversation',
    'list_conversations',
    'recall',
    'remember',
    'search_conversations',
  ]);
  for (const tool of tools) {
    assert.equal(tool.inputSchema.type, 'object', tool.name);
    assert.equal(tool.inputSchema.additionalProperties, false, tool.name);
    assert.equal(tool.outputSchema.type, 'object', tool.name);
    assert.ok(tool.description.length > 20, tool.name);
  }
  const recall = tools.find((tool) => tool.name === 'recall');
  assert.deepEqual(recall.inputSchema.required, ['query']);
  assert.equal(recall.inputSchema.properties.limit.type, 'integer');
  assert.match(recall.description, /words only: this server has no embedder/);
  await client.close();
});

it("remember, recall and forget act on this user's memories", async () => {
  const { client } = await connect();
  await client.listTools(); // the SDK then checks each structuredContent against its outputSchema
  const first = await client.callTool({
    name: 'remember',
    arguments: { text: 'Prefers aisle seats on long flights', namespace: 'prefs', metadata: { source: 'chat' } },
  });
  assert.equal(first.isError, false, first.content[0].text);
  const memory = first.structuredContent;
  assert.equal(memory.created, true);
  assert.equal(memory.text, 'Prefers aisle seats on long flights');
  assert.equal(memory.namespace, 'prefs');
  assert.deepEqual(memory.metadata, { source: 'chat' });
  assert.equal(memory.user, 'u1');
  assert.deepEqual(JSON.parse(first.content[0].text), memory);

  const again = await client.callTool({
    name: 'remember',
    arguments: { text: '  prefers AISLE seats on long   flights ', namespace: 'prefs' },
  });
  assert.equal(again.structuredContent.created, false, 'the same text folded is not stored twice');
  assert.equal(again.structuredContent.id, memory.id);

  const recalled = await client.callTool({ name: 'recall', arguments: { query: 'aisle seats', limit: 5 } });
  assert.equal(recalled.isError, false, recalled.content[0].text);
  assert.equal(recalled.structuredContent.mode, 'keyword');
  assert.deepEqual(
    recalled.structuredContent.memories.map((m) => m.id),
    [memory.id],
  );

  const other = await connect({ user: 'u2' });
  const elsewhere = await other.client.callTool({ name: 'recall', arguments: { query: 'aisle seats' } });
  assert.deepEqual(elsewhere.structuredContent.memories, [], "another user's recall never sees u1's memories");
  await other.client.close();

  const forgotten = await client.callTool({ name: 'forget', arguments: { id: memory.id } });
  assert.deepEqual(forgotten.structuredContent, { id: memory.id, deleted: true });
  const after = await client.callTool({ name: 'recall', arguments: { query: 'aisle seats' } });
  assert.deepEqual(after.structuredContent.memories, []);
  await client.close();
});

it("search_conversations, list_conversations and get_conversation read this user's sessions", async () => {
  await conversation('u1', 'deploy-chat', ['how do I deploy?', 'run `make -C /srv/app deploy` then check it']);
  await conversation('u1', 'tea-chat', ['I like green tea']);
  await conversation('u2', 'u2-chat', ['make -C /srv/app deploy is what I use too']);
  const { client } = await connect();
  await client.listTools();

  const found = await client.callTool({
    name: 'search_conversations',
    arguments: { query: 'make -C /srv/app deploy', context: 1 },
  });
  assert.equal(found.isError, false, found.content[0].text);
  const results = found.structuredContent.results;
  assert.deepEqual(
    results.map((r) => r.session.id),
    ['deploy-chat'],
  );
  assert.equal(results[0].hits[0].seq, 2);
  assert.match(results[0].hits[0].excerpt, /make -C \/srv\/app deploy/);

  const listed = await client.callTool({ name: 'list_conversations', arguments: { limit: 10 } });
  assert.deepEqual(listed.structuredContent.sessions.map((s) => s.id).sort(), ['deploy-chat', 'tea-chat']);

  const read = await client.callTool({ name: 'get_conversation', arguments: { session_id: 'deploy-chat' } });
  assert.equal(read.isError, false, read.content[0].text);
  assert.equal(read.structuredContent.session.title, 'chat deploy-chat');
  assert.deepEqual(
    read.structuredContent.events.map((e) => e.content.text),
    ['how do I deploy?', 'run `make -C /srv/app deploy` then check it'],
  );
  const recent = await client.callTool({
    name: 'get_conversation',
    arguments: { session_id: 'deploy-chat', num_recent_events: 1, from_checkpoint: true },
  });
  assert.deepEqual(
    recent.structuredContent.events.map((e) => e.seq),
    [2],
  );
  assert.equal(recent.structuredContent.summary, null);
  await client.close();
});

it('a tool that fails answers isError with a message a person can act on', async () => {
  const { client } = await connect();
  const absent = await client.callTool({ name: 'forget', arguments: { id: 'no-such-memory' } });
  assert.equal(absent.isError, true);
  assert.equal(absent.structuredContent, undefined);
  assert.equal(absent.content[0].text, "memory no-such-memory of user u1 in app shop not found (deleted or expired?)");
  const missing = await client.callTool({ name: 'get_conversation', arguments: { session_id: 'not-there' } });
  assert.equal(missing.isError, true);
  assert.match(missing.content[0].text, /not-there/);
  const long = await client.callTool({ name: 'remember', arguments: { text: 'x'.repeat(9000) } });
  assert.equal(long.isError, true);
  assert.equal(long.content[0].text, 'text: 9000 bytes is over memory.max_text_bytes (8192)');
  const zero = await client.callTool({ name: 'recall', arguments: { query: 'x', limit: 0 } });
  assert.equal(zero.isError, true);
  assert.equal(zero.content[0].text, 'limit: must be 1 or more');
  await client.close();
});

it('wrong argument types and unknown arguments are tool errors naming the argument', async () => {
  const { client } = await connect();
  const cases = [
    [{ name: 'recall', arguments: { query: 'x', limit: 'five' } }, "argument 'limit': expected an integer, got a string"],
    [{ name: 'remember', arguments: { text: 42 } }, "argument 'text': expected a string, got a number"],
    [
      { name: 'remember', arguments: { text: 'x', metadata: 'tag' } },
      "argument 'metadata': expected a JSON object, got a string",
    ],
    [
      { name: 'get_conversation', arguments: { session_id: 's', from_checkpoint: 'yes' } },
      "argument 'from_checkpoint': expected true or false, got a string",
    ],
    [
      { name: 'recall', arguments: { query: 'x', user: 'u2' } },
      "unknown argument 'user'; this tool takes query, limit, namespace, mode",
    ],
    [{ name: 'forget', arguments: {} }, "argument 'id' is required: The memory's id."],
  ];
  for (const [call, message] of cases) {
    const result = await client.callTool(call);
    assert.equal(result.isError, true, JSON.stringify(call));
    assert.equal(result.content[0].text, message);
  }
  await client.close();
});

it('an unknown tool is a JSON-RPC error -32602', async () => {
  const { client } = await connect();
  await assert.rejects(client.callTool({ name: 'teleport', arguments: {} }), (error) => {
    assert.equal(error.code, -32602);
    assert.match(error.message, /unknown tool 'teleport'; the tools are remember, recall, forget/);
    return true;
  });
  await client.close();
});

it("a token of another app is refused with 403, no token with 401", async () => {
  await assert.rejects(connect({ token: BANK_TOKEN }), (error) => {
    assert.equal(error.code, 403);
    assert.match(error.message, /the token is not valid for app shop/);
    return true;
  });
  await assert.rejects(connect({ token: null }), (error) => {
    assert.equal(error.code, 401);
    return true;
  });
  const bank = await connect({ app: 'bank', token: BANK_TOKEN });
  await bank.client.ping();
  await bank.client.close();
});

it('an unknown session id is 404, and the client initializes a new session', async () => {
  const stale = new Client({ name: 'mnemod-tests', version: '1.0.0' });
  // With a session id the SDK resumes instead of initializing, as after a daemon restart.
  await stale.connect(transport({ sessionId: '0123456789abcdef0123456789abcdef' }));
  await assert.rejects(stale.listTools(), (error) => {
    assert.equal(error.code, 404);
    assert.match(error.message, /MCP session 0123456789abcdef0123456789abcdef is not known here/);
    return true;
  });
  await stale.close();
  const fresh = await connect();
  assert.equal((await fresh.client.listTools()).tools.length, 6);
  // A session is its opener's: another user of the same app cannot use it.
  const borrowed = new Client({ name: 'mnemod-tests', version: '1.0.0' });
  await borrowed.connect(transport({ user: 'u2', sessionId: fresh.transport.sessionId }));
  await assert.rejects(borrowed.listTools(), (error) => error.code === 404);
  await borrowed.close();
  // DELETE ends it.
  const id = fresh.transport.sessionId;
  await fresh.transport.terminateSession();
  const ended = new Client({ name: 'mnemod-tests', version: '1.0.0' });
  await ended.connect(transport({ sessionId: id }));
  await assert.rejects(ended.listTools(), (error) => error.code === 404);
  await ended.close();
  await fresh.client.close();
});

it('malformed JSON-RPC bodies get JSON-RPC errors, and the daemon keeps serving', async () => {
  const { client, transport: t } = await connect();
  const parse = await post('{"jsonrpc": "2.0", "id": 1, "method":', { sessionId: t.sessionId });
  assert.equal(parse.status, 400);
  assert.equal(JSON.parse(parse.text).error.code, -32700);
  assert.equal(JSON.parse(parse.text).id, null);
  const batch = await post(JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'ping' }]), { sessionId: t.sessionId });
  assert.equal(batch.status, 200);
  assert.deepEqual(JSON.parse(batch.text).error, {
    code: -32600,
    message: 'JSON-RPC batches are not supported; send one message per request',
  });
  const noMethod = await post(JSON.stringify({ jsonrpc: '2.0', id: 9 }), { sessionId: t.sessionId });
  assert.equal(JSON.parse(noMethod.text).id, 9);
  assert.equal(JSON.parse(noMethod.text).error.code, -32600);
  const unknown = await post(JSON.stringify({ jsonrpc: '2.0', id: 'u', method: 'resources/list' }), {
    sessionId: t.sessionId,
  });
  assert.equal(JSON.parse(unknown.text).error.code, -32601);
  await client.ping();
  await client.close();
});

it('an oversized body is refused with 413 and the session goes on', async () => {
  const { client } = await connect();
  await assert.rejects(client.callTool({ name: 'remember', arguments: { text: 'y'.repeat(70 * 1024) } }), (error) => {
    assert.equal(error.code, 413);
    assert.match(error.message, /payload_too_large/);
    return true;
  });
  await client.ping();
  const small = await client.callTool({ name: 'remember', arguments: { text: 'fits' } });
  assert.equal(small.isError, false);
  await client.close();
});

it('each tool call is counted in /metrics by tool and result', async () => {
  const { client } = await connect();
  await client.callTool({ name: 'list_conversations', arguments: {} });
  await client.callTool({ name: 'get_conversation', arguments: { session_id: 'absent-one' } });
  await client.close();
  const response = await fetch(`${daemon.base}/metrics`, { headers: { Authorization: `Bearer ${SHOP_TOKEN}` } });
  const text = await response.text();
  assert.match(text, /mnemo_mcp_tool_calls_total\{tool="list_conversations",result="ok"\} [1-9]/);
  assert.match(text, /mnemo_mcp_tool_calls_total\{tool="get_conversation",result="error"\} [1-9]/);
  assert.match(text, /mnemo_mcp_tool_duration_seconds_count\{tool="list_conversations"\} [1-9]/);
  assert.match(text, /mnemo_http_requests_total\{route="\/v1\/apps\/\{app\}\/users\/\{user\}\/mcp",method="POST",status="200"\}/);
});
