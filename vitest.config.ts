import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Unit and integration tests of every workspace. End-to-end journeys have their own
// config (e2e/vitest.config.ts) because they need the built product running.
export default defineConfig({
  test: {
    // Vitest runs cores − 1 files at once by default: one at a time on a 2-core machine, where
    // most test files wait on other processes (sandboxes, servers, databases). Two at once took
    // the unit and integration tests from 22 to 15 minutes there (README).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'domain',
          include: ['packages/domain/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['apps/server/src/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      'apps/web/vite.config.ts',
    ],
  },
});
