// @mnemod/client: the TypeScript client of mnemod and its LangGraph.js
// adapters (checkpoint saver and store). The OpenAI Agents SDK and Google ADK
// adapters live in their own entry points, so that importing this one needs
// only LangGraph's packages; `@mnemod/client/client` needs none.
export * from './client-only.js';
export { MnemoCheckpointSaver, type MnemoCheckpointSaverOptions } from './langgraph/saver.js';
export { MnemoStore, type MnemoStoreOptions } from './langgraph/store.js';
