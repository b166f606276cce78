import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root,
  test: {
    environment: 'node',
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Real PTYs, real servers and real child processes: two cores, so keep the pool small.
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          // Unit test files mock no module and set no global, so a worker runs file after file
          // without a new module graph for each: most of their time was importing the same
          // modules again (test/unit alone: 321 s of workers' time isolated, 194 s not).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          // These start hosts, servers and CLIs that read process-wide state (env, cwd, signals):
          // each file keeps its own process.
          include: ['test/integration/**/*.test.ts', 'test/reliability/**/*.test.ts'],
        },
      },
    ],
  },
});
