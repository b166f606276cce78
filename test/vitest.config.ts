import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root,
  test: {
    include: [
      'test/unit/**/*.test.ts',
      'test/integration/**/*.test.ts',
      'test/reliability/**/*.test.ts',
    ],
    environment: 'node',
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Real PTYs, real servers and real child processes: two cores, so keep the pool small.
    pool: 'forks',
    maxWorkers: 2,
  },
});
