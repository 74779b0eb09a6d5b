import { defineConfig } from 'vitest/config';

// One runner, three projects: pure domain units, server integration on real databases, and
// console components in jsdom. The browser end-to-end suite is Playwright (packages/e2e).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'domain',
          include: ['packages/domain/test/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          include: ['packages/server/test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      'packages/console/vite.config.ts',
    ],
  },
});
