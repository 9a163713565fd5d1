import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 20000,
    hookTimeout: 30000,
    // Two cores: more forks only fight over them.
    pool: 'forks',
    maxWorkers: 2,
  },
});
