// LangGraph's checkpoint validation suite runs under vitest (its spec uses
// vitest's global describe/it/expect); run.sh starts it after node's tests.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globals: true,
    include: ['test/*.vitest.mjs'],
    testTimeout: 30000,
    hookTimeout: 60000,
    fileParallelism: false,
  },
});
