// Google ADK on mnemod: an LlmAgent with a scripted model (no network) runs
// two turns through ADK's Runner on MnemoSessionService and
// MnemoMemoryService, the first with a tool call and state at three scopes;
// the second turn, on fresh services, sees the first from mnemod. Then the
// services' methods one by one.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { BaseLlm, FunctionTool, LlmAgent, Runner, createEvent } from '@google/adk';

import { MnemoMemoryService, MnemoSessionService } from '../dist/adk.js';
import { SHOP_TOKEN, eachBackend, unique } from './harness.mjs';

// A model that answers from a script and records the contents it was sent.
class ScriptedLlm extends BaseLlm {
  constructor(script) {
    super({ model: 'scripted' });
    this.script = script;
    this.requests = [];
  }
  async *generateContentAsync(request) {
    this.requests.push(JSON.parse(JSON.stringify(request.contents)));
    const parts = this.script.shift();
    if (!parts) throw new Error('the scripted model ran out of answers');
    yield { content: { role: 'model', parts }, turnComplete: true };
  }
  async connect() {
    throw new Error('the scripted model has no live connection');
  }
}

const describePart = (part) =>
  part.text ??
  (part.functionCall
    ? `call ${part.functionCall.name}`
    : part.functionResponse
      ? `result ${JSON.stringify(part.functionResponse.response)}`
      : '?');
const describe = (contents) => contents.map((c) => `${c.role}: ${c.parts.map(describePart).join(' ')}`);
const say = (text) => ({ role: 'user', parts: [{ text }] });

async function drain(iterable) {
  const events = [];
  for await (const event of iterable) events.push(event);
  return events;
}

eachBackend('adk', (ctx) => {
  const services = () => ({
    sessionService: new MnemoSessionService({ url: ctx.daemon.base, token: SHOP_TOKEN }),
    memoryService: new MnemoMemoryService({ url: ctx.daemon.base, token: SHOP_TOKEN }),
  });

  test('an ADK agent runs two turns on mnemod; the second sees the first', async () => {
    const user = unique('ann');
    const weather = new FunctionTool({
      name: 'weather',
      description: 'The weather in a city',
      execute: async ({ city }) => ({ forecast: `sunny in ${city}` }),
    });
    const model = new ScriptedLlm([
      [{ functionCall: { id: 'fc-1', name: 'weather', args: { city: 'Paris' } } }],
      [{ text: 'It is sunny in Paris.' }],
      [{ text: 'You asked about Paris.' }],
    ]);
    const agent = new LlmAgent({
      name: 'helper',
      model,
      instruction: 'Be brief.',
      tools: [weather],
      outputKey: 'last_answer',
    });
    const first = services();
    const session = await first.sessionService.createSession({
      appName: 'shop',
      userId: user,
      state: { 'user:lang': 'de' },
    });
    const runner = new Runner({ appName: 'shop', agent, ...first });
    const turn1 = await drain(
      runner.runAsync({
        userId: user,
        sessionId: session.id,
        newMessage: say('Weather in Paris?'),
        stateDelta: { 'app:promo': 'spring', 'temp:draft': 'x' },
      }),
    );
    assert.equal(turn1.at(-1).content.parts[0].text, 'It is sunny in Paris.');

    const second = services();
    const runner2 = new Runner({ appName: 'shop', agent, ...second });
    const turn2 = await drain(
      runner2.runAsync({ userId: user, sessionId: session.id, newMessage: say('Which city did I ask about?') }),
    );
    assert.equal(turn2.at(-1).content.parts[0].text, 'You asked about Paris.');
    assert.deepEqual(describe(model.requests[2]), [
      'user: Weather in Paris?',
      'model: call weather',
      'user: result {"forecast":"sunny in Paris"}',
      'model: It is sunny in Paris.',
      'user: Which city did I ask about?',
    ]);

    const stored = await second.sessionService.getSession({ appName: 'shop', userId: user, sessionId: session.id });
    assert.equal(stored.state.last_answer, 'You asked about Paris.');
    assert.equal(stored.state['user:lang'], 'de');
    assert.equal(stored.state['app:promo'], 'spring');
    assert.equal(stored.state['temp:draft'], undefined);
    assert.equal((await ctx.client.getUserState('shop', user)).state.lang, 'de');
    assert.equal(stored.events.length, 6); // two user messages, the call, its result, two answers
    const { events } = await ctx.client.getSession('shop', user, session.id);
    assert.deepEqual(
      events.map((e) => e.id),
      stored.events.map((e) => e.id),
    );
    assert.equal(events[0].content.text, 'Weather in Paris?');

    await second.memoryService.addSessionToMemory(stored);
    await second.memoryService.addSessionToMemory(stored); // again: nothing new
    const found = await second.memoryService.searchMemory({ appName: 'shop', userId: user, query: 'sunny Paris' });
    // Any word matches, best first: both words, then the shorter text holding Paris.
    assert.deepEqual(
      found.memories.map((m) => m.content.parts[0].text),
      ['It is sunny in Paris.', 'Weather in Paris?', 'You asked about Paris.'],
    );
    assert.equal(found.memories[0].author, 'helper');
    const memories = await ctx.client.listMemories('shop', user);
    assert.equal(memories.memories.length, 4);
  });

  test('session service: create, get with filters, list, delete, stale and partial appends', async () => {
    const { sessionService } = services();
    const user = unique('bob');
    const s = await sessionService.createSession({
      appName: 'shop',
      userId: user,
      sessionId: 'chat',
      state: { step: 1, 'temp:x': 1 },
    });
    assert.equal(s.state.step, 1);
    assert.ok(!('temp:x' in s.state));
    await assert.rejects(
      sessionService.createSession({ appName: 'shop', userId: user, sessionId: 'chat' }),
      /already_exists/,
    );
    const base = Date.now();
    for (let i = 0; i < 4; ++i) {
      await sessionService.appendEvent({
        session: s,
        event: createEvent({
          author: i % 2 ? 'helper' : 'user',
          content: { role: 'user', parts: [{ text: `m${i}` }] },
          timestamp: base + i * 10,
        }),
      });
    }
    await sessionService.appendEvent({
      session: s,
      event: createEvent({ author: 'helper', partial: true, content: { parts: [{ text: 'typing' }] } }),
    });
    const get = (config) => sessionService.getSession({ appName: 'shop', userId: user, sessionId: 'chat', config });
    const texts = (session) => session.events.map((e) => e.content.parts[0].text);
    assert.deepEqual(texts(await get()), ['m0', 'm1', 'm2', 'm3']);
    assert.deepEqual(texts(await get({ numRecentEvents: 2 })), ['m2', 'm3']);
    assert.deepEqual(texts(await get({ afterTimestamp: base + 10 })), ['m1', 'm2', 'm3']);
    assert.equal(await sessionService.getSession({ appName: 'shop', userId: user, sessionId: 'none' }), undefined);

    // A write through another object makes `s` stale: its next append is refused and stores nothing.
    const other = await get();
    await sessionService.appendEvent({
      session: other,
      event: createEvent({ author: 'user', content: { parts: [{ text: 'elsewhere' }] } }),
    });
    await assert.rejects(
      sessionService.appendEvent({
        session: s,
        event: createEvent({ author: 'user', content: { parts: [{ text: 'stale' }] } }),
      }),
      /changed since this session object was read/,
    );
    assert.deepEqual(texts(await get()), ['m0', 'm1', 'm2', 'm3', 'elsewhere']);

    await sessionService.createSession({ appName: 'shop', userId: user, sessionId: 'chat2' });
    const listed = await sessionService.listSessions({ appName: 'shop', userId: user });
    assert.deepEqual(listed.sessions.map((x) => x.id).sort(), ['chat', 'chat2']);
    assert.ok(listed.sessions.every((x) => x.events.length === 0 && Object.keys(x.state).length === 0));
    const paged = await sessionService.listSessions({ appName: 'shop', userId: user, limit: 1, page: 2, order: 'asc' });
    // chat2 was written last.
    assert.deepEqual([paged.sessions.map((x) => x.id), paged.totalItems, paged.totalPages], [['chat2'], 2, 2]);
    const appWide = await sessionService.listSessions({ appName: 'shop' });
    assert.ok(appWide.sessions.some((x) => x.userId === user));
    await sessionService.deleteSession({ appName: 'shop', userId: user, sessionId: 'chat' });
    await sessionService.deleteSession({ appName: 'shop', userId: user, sessionId: 'chat' });
    assert.equal(await get(), undefined);
  });
});
