import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One runner, three projects: pure domain units, server integration on real databases, and
// console components in jsdom. The browser end-to-end suite is Playwright (packages/e2e).
// docs/decisions/0025: every core runs test files (Vitest's default leaves one free), the server's
// files in parallel on databases of their own, copied from one migrated template per run.
export default defineConfig({
  test: {
    maxWorkers: Number(process.env.LATCHKEY_TEST_WORKERS) || availableParallelism(),
    projects: [
      {
        test: {
          name: 'domain',
          include: ['packages/domain/test/**/*.test.ts'],
          environment: 'node',
          // Pure functions: one module graph per worker.
          isolate: false,
        },
      },
      {
        test: {
          name: 'server',
          include: ['packages/server/test/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['packages/server/test/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // The app's module graph is imported once per worker, not once per file: the server keeps
          // no state in its modules (each test file builds its own app on its own database).
          isolate: false,
          // …so no spy outlives its test (a file's console.log spy would stay on for the next file).
          restoreMocks: true,
        },
      },
      'packages/console/vite.config.ts',
      'packages/console/vitest.unit.config.ts',
    ],
  },
});
