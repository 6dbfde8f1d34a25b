// LangGraph's own conformance suite for checkpoint savers
// (@langchain/langgraph-checkpoint-validation) against MnemoCheckpointSaver
// on a real mnemod: the whole default suite (`validate`, nothing skipped:
// the suite exempts only LangGraph's own savers by name from its
// changed-channels test) and the opt-in getDeltaChannelHistory tests that
// LangGraph's in-repo savers run. Every saver the suite creates gets a user
// of its own, which isolates its threads as the suite requires. Storage:
// MNEMO_TS_VALIDATE_STORAGE (sqlite unless set).
import { deltaChannelHistoryTests, validate } from '@langchain/langgraph-checkpoint-validation';

import { MnemoCheckpointSaver } from '../dist/index.js';
import { SHOP_TOKEN, startDaemon } from '../../../tests/mcp/daemon.mjs';

let daemon;
let count = 0;

const initializer = {
  checkpointerName: 'MnemoCheckpointSaver',
  beforeAllTimeout: 60000,
  async beforeAll() {
    daemon = await startDaemon('', { storage: process.env.MNEMO_TS_VALIDATE_STORAGE ?? 'sqlite', maxBody: '4MiB' });
  },
  async afterAll() {
    const exit = await daemon?.stop();
    if (exit !== 'exit 0') throw new Error(`mnemod did not stop cleanly (${exit}):\n${daemon.log()}`);
  },
  createCheckpointer() {
    return new MnemoCheckpointSaver({
      url: daemon.base,
      token: SHOP_TOKEN,
      app: 'shop',
      user: `saver-${process.pid}-${++count}`,
    });
  },
};

validate(initializer);
deltaChannelHistoryTests(initializer);
