// Writes a LangGraph thread and a store item from TypeScript, for
// test_typescript_thread.py: a StateGraph compiled with the TypeScript
// MnemoCheckpointSaver runs two invocations on one thread, and the TypeScript
// MnemoStore puts one item. Needs clients/typescript built (its dist/, as
// ctest typescript_client leaves it). Run from clients/typescript, fed on
// standard input, so that its packages and dist/ resolve from there:
//   cd clients/typescript && node --input-type=module - URL APP USER THREAD < ts_thread.mjs
import { Annotation, END, START, StateGraph } from '@langchain/langgraph';

import { MnemoCheckpointSaver, MnemoStore } from './dist/index.js';

const [url, app, user, thread] = process.argv.slice(2);
const State = Annotation.Root({
  log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  turns: Annotation({ reducer: (_, b) => b, default: () => 0 }),
});
const graph = new StateGraph(State)
  .addNode('count', (state) => ({ log: [`turn ${state.turns + 1}`], turns: state.turns + 1 }))
  .addEdge(START, 'count')
  .addEdge('count', END)
  .compile({ checkpointer: new MnemoCheckpointSaver({ url, app, user }) });
const config = { configurable: { thread_id: thread } };
await graph.invoke({ log: ['from typescript'] }, config);
const last = await graph.invoke({ log: ['again'] }, config);
await new MnemoStore({ url, app, user }).put(['prefs', 'ann é'], 'lunch', { dish: 'ramen', spicy: true, n: 1.5 });
process.stdout.write(JSON.stringify(last));
