// A real LangGraph.js graph (@langchain/langgraph) compiled with
// MnemoCheckpointSaver and MnemoStore: two invocations on one thread, the
// second through fresh saver and store objects (as after a restart), state
// history, an interrupt resumed with a Command, and the store used from a node.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Annotation, Command, END, START, StateGraph, interrupt } from '@langchain/langgraph';

import { MnemoCheckpointSaver, MnemoStore } from '../dist/index.js';
import { SHOP_TOKEN, eachBackend, unique } from './harness.mjs';

const State = Annotation.Root({
  log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  turns: Annotation({ reducer: (_, b) => b, default: () => 0 }),
});

function graph(ctx, user) {
  const options = { url: ctx.daemon.base, token: SHOP_TOKEN, app: 'shop', user };
  const builder = new StateGraph(State)
    .addNode('remember', async (state, config) => {
      const said = state.log.at(-1);
      await config.store.put(['notes', user], `turn-${state.turns + 1}`, { text: said });
      const recalled = await config.store.search(['notes', user], { query: 'Paris' });
      return { log: [`recalled ${recalled.length}`], turns: state.turns + 1 };
    })
    .addNode('confirm', async (state) => {
      if (!state.log.at(-2)?.includes('book')) return {};
      const answer = interrupt({ question: 'really book?' });
      return { log: [`confirmed: ${answer}`] };
    })
    .addEdge(START, 'remember')
    .addEdge('remember', 'confirm')
    .addEdge('confirm', END);
  return builder.compile({ checkpointer: new MnemoCheckpointSaver(options), store: new MnemoStore(options) });
}

eachBackend('langgraph graph', (ctx) => {
  test('a StateGraph keeps its thread in mnemod across invocations, restarts and interrupts', async () => {
    const user = unique('g');
    const config = { configurable: { thread_id: 'trip' } };
    const first = await graph(ctx, user).invoke({ log: ['fly to Paris'] }, config);
    assert.deepEqual(first, { log: ['fly to Paris', 'recalled 1'], turns: 1 });

    const again = graph(ctx, user); // fresh objects: the thread comes from mnemod
    const second = await again.invoke({ log: ['book the Paris hotel'] }, config);
    assert.deepEqual(second.log, ['fly to Paris', 'recalled 1', 'book the Paris hotel', 'recalled 2']);
    const paused = await again.getState(config);
    assert.deepEqual(paused.next, ['confirm']);
    assert.equal(paused.tasks[0].interrupts[0].value.question, 'really book?');

    const resumed = await graph(ctx, user).invoke(new Command({ resume: 'yes' }), config);
    assert.deepEqual(resumed.log.at(-1), 'confirmed: yes');
    assert.equal(resumed.turns, 2);

    const history = [];
    for await (const snapshot of again.getStateHistory(config)) history.push(snapshot);
    assert.ok(history.length >= 6, `${history.length} checkpoints`);
    assert.deepEqual(history.at(-1).values, { log: [], turns: 0 });
    assert.deepEqual(history[0].values.log.at(-1), 'confirmed: yes');

    const notes = await ctx.client.listMemories('shop', user);
    assert.deepEqual(notes.memories.map((m) => m.text).sort(), ['book the Paris hotel', 'fly to Paris']);
  });
});
