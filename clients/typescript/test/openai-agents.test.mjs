// MnemoSession under the OpenAI Agents SDK: an Agent with a scripted Model
// (no network) runs two turns, the first with a tool call; the second turn's
// model request holds the first turn as read back from mnemod. Then the
// Session methods one by one: limits, pairs of tool call and result, pop, clear.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Agent, Usage, run, setTracingDisabled, tool } from '@openai/agents-core';
import { z } from 'zod';

import { MnemoSession } from '../dist/openai-agents.js';
import { SHOP_TOKEN, eachBackend, unique } from './harness.mjs';

setTracingDisabled(true); // no network: traces would go to OpenAI

const say = (text) => ({
  type: 'message',
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text }],
});

// A Model that answers from a script and records what it was asked.
class ScriptedModel {
  constructor(script) {
    this.script = script;
    this.requests = [];
  }
  async getResponse(request) {
    this.requests.push(request);
    const output = this.script.shift();
    if (!output) throw new Error('the scripted model ran out of answers');
    return { usage: new Usage(), output, responseId: `r${this.requests.length}` };
  }
  // eslint-disable-next-line require-yield
  async *getStreamedResponse() {
    throw new Error('the scripted model does not stream');
  }
}

const inputOf = (request) =>
  typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : request.input;
const describeItem = (item) =>
  item.type === 'function_call'
    ? `call ${item.name} ${item.arguments}`
    : item.type === 'function_call_result'
      ? `result ${item.output?.text ?? JSON.stringify(item.output)}`
      : `${item.role}: ${typeof item.content === 'string' ? item.content : item.content.map((c) => c.text).join('')}`;

eachBackend('openai agents', (ctx) => {
  const session = (sessionId, extra = {}) =>
    new MnemoSession({ url: ctx.daemon.base, token: SHOP_TOKEN, app: 'shop', user: 'ann', sessionId, ...extra });

  test('an Agent runs two turns on a MnemoSession; the second sees the first from mnemod', async () => {
    const weather = tool({
      name: 'weather',
      description: 'The weather in a city',
      parameters: z.object({ city: z.string() }),
      execute: async ({ city }) => `sunny in ${city}`,
    });
    const model = new ScriptedModel([
      [
        {
          type: 'function_call',
          callId: 'call-1',
          name: 'weather',
          arguments: '{"city":"Paris"}',
          status: 'completed',
        },
      ],
      [say('It is sunny in Paris.')],
      [say('You asked about Paris.')],
    ]);
    const agent = new Agent({ name: 'helper', instructions: 'Be brief.', model, tools: [weather] });
    const id = unique('chat');
    const first = await run(agent, 'Weather in Paris?', { session: session(id) });
    assert.equal(first.finalOutput, 'It is sunny in Paris.');
    // A new session object (as after a restart): everything comes from mnemod.
    const second = await run(agent, 'Which city did I ask about?', { session: session(id) });
    assert.equal(second.finalOutput, 'You asked about Paris.');
    assert.deepEqual(inputOf(model.requests[2]).map(describeItem), [
      'user: Weather in Paris?',
      'call weather {"city":"Paris"}',
      'result sunny in Paris',
      'assistant: It is sunny in Paris.',
      'user: Which city did I ask about?',
    ]);
    const { events } = await ctx.client.getSession('shop', 'ann', id);
    assert.deepEqual(
      events.map((e) => e.role),
      ['user', 'assistant', 'tool', 'assistant', 'user', 'assistant'],
    );
    assert.equal(events[0].content.text, 'Weather in Paris?');
    const found = await ctx.client.search('shop', { q: 'sunny', user: 'ann' });
    assert.ok(found.results.some((r) => r.session.id === id));
  });

  test('getItems(limit) keeps a tool result with its call; popItem and clearSession', async () => {
    const s = session(unique('chat'));
    assert.deepEqual(await s.getItems(), []);
    assert.equal(await s.popItem(), undefined);
    const items = [
      { role: 'user', content: 'hi' },
      { type: 'function_call', callId: 'c1', name: 'f', arguments: '{}', status: 'completed' },
      {
        type: 'function_call_result',
        callId: 'c1',
        name: 'f',
        status: 'completed',
        output: { type: 'text', text: 'ok' },
      },
      say('done'),
    ];
    await s.addItems(items);
    assert.deepEqual(await s.getItems(), items);
    // The newest two would start with a result whose call is older: the window reaches back to it.
    assert.deepEqual(await s.getItems(2), items.slice(1));
    assert.deepEqual(await s.getItems(1), [items[3]]);
    assert.deepEqual(await s.getItems(0), []);
    assert.deepEqual(await s.popItem(), items[3]);
    assert.deepEqual(await s.getItems(), items.slice(0, 3));
    await s.addItems([{ role: 'user', content: 'again' }]);
    assert.deepEqual(await s.popItem(), { role: 'user', content: 'again' });
    assert.deepEqual(await s.getItems(), items.slice(0, 3));
    await s.clearSession();
    assert.deepEqual(await s.getItems(), []);
    await s.addItems([{ role: 'user', content: 'fresh start' }]);
    assert.deepEqual(await s.getItems(), [{ role: 'user', content: 'fresh start' }]);
    assert.match(await session().getSessionId(), /^[0-9a-f-]{36}$/);
  });
});
