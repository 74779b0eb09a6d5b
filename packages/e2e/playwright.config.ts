import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

// Debian's Chromium, in its headless build when installed (package chromium-headless-shell, the
// same Chromium as /usr/bin/chromium without the windowing part): the suite runs in about two
// thirds of the CPU the full browser's headless mode takes (docs/decisions/0025).
const chromium =
  process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) => existsSync(path)) ?? '/usr/bin/chromium';

// Browser end-to-end: the built console served by the real server (started in global setup on a
// free loopback port with a fresh embedded database), driven in Debian's Chromium.
export default defineConfig({
  testDir: './tests',
  globalSetup: './support/global-setup.ts',
  // docs/decisions/0025: every scenario makes its own data, so scenarios (not only files) share the
  // workers; the longest walks no longer hold one worker while the other waits.
  fullyParallel: true,
  workers: 2,
  retries: 0,
  // Two workers share two cores with the server, PostgreSQL and two browsers, and in `npm test` with
  // Vitest's two workers: a scenario takes about twice its time alone, a page's wait as long
  // (docs/decisions/0025).
  timeout: 120_000,
  expect: { timeout: 20_000 },
  reporter: [['list']],
  outputDir: '../../test-results/e2e',
  use: {
    // A failed scenario keeps a light trace: each action with its timing and error, the network and
    // the console, and the failure's screenshot (below). Not the DOM snapshot of every action nor the
    // film strip: recording them in every scenario, passing ones too, cost a sixth of the suite's
    // wall time (docs/decisions/0025, fourth round). To see a failure's DOM step by step, run it
    // again with `--trace retain-on-failure` (the snapshots come back) or `--trace on`.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false, sources: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
