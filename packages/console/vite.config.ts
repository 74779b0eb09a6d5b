/// <reference types="vitest/config" />
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, runnerImport, type Plugin } from 'vite';
import { slimTopology } from './src/features/dashboard/map/slim-topology.ts';

const root = fileURLToPath(new URL('.', import.meta.url));
// The server runs on 8080 in development (`npm run dev`); the console calls it at the same origin.
const apiTarget = process.env['LATCHKEY_API'] ?? 'http://127.0.0.1:8080';

const API_ROUTES_ID = 'virtual:api-routes';
const DOMAIN_SOURCE = `${fileURLToPath(new URL('../domain/src/', import.meta.url))}`;

interface ContractEntry {
  method: string;
  path: string;
}

/**
 * The API client needs only the method and path of each contract entry; the entries themselves
 * also carry their zod schemas, and importing them would put zod (~23 kB gzipped) in the first
 * download. This module is generated from the contract at build time, so the contract stays the
 * one source of truth while the shell stays small. See src/lib/api/contract.ts.
 */
function contractRoutes(): Plugin {
  return {
    name: 'latchkey:contract-routes',
    resolveId(source) {
      return source === API_ROUTES_ID ? `\0${API_ROUTES_ID}` : null;
    },
    async load(id) {
      if (id !== `\0${API_ROUTES_ID}`) return null;
      // Regenerate in development when the contract changes.
      this.addWatchFile(`${DOMAIN_SOURCE}api/contract.ts`);
      const { module } = await runnerImport<{ api: Record<string, ContractEntry> }>('@latchkey/domain', {
        root,
        configFile: false,
        logLevel: 'silent',
      });
      const routes = Object.fromEntries(Object.entries(module.api).map(([name, entry]) => [name, { method: entry.method, path: entry.path }]));
      return `export const apiRoutes = ${JSON.stringify(routes, null, 2)};\n`;
    },
    // The domain package is pure (no I/O, nothing runs on import): let unused schemas, and with
    // them zod, be dropped from the chunks that only need a constant or a permission check.
    transform(_code, id) {
      return id.startsWith(DOMAIN_SOURCE) ? { moduleSideEffects: false } : null;
    },
  };
}

const WORLD_ID = 'virtual:world-110m';

/**
 * The dashboard map's countries (issue 38): world-atlas's 110m topology cut down at build time to
 * what the map draws — the countries alone, named by alpha-2 code, on a coarser grid
 * (map/slim-topology.ts): 21 KiB gzip in the dashboard's chunk instead of 37.
 */
function worldTopology(): Plugin {
  return {
    name: 'latchkey:world-110m',
    resolveId(source) {
      return source === WORLD_ID ? `\0${WORLD_ID}` : null;
    },
    load(id) {
      if (id !== `\0${WORLD_ID}`) return null;
      const file = createRequire(import.meta.url).resolve('world-atlas/countries-110m.json');
      this.addWatchFile(file);
      // JSON.parse of a string: parsed faster than the same object as a JavaScript literal.
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(slimTopology(JSON.parse(readFileSync(file, 'utf8')))))});\n`;
    },
  };
}

export default defineConfig({
  root,
  plugins: [react(), contractRoutes(), worldTopology()],
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/idp': { target: apiTarget, changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/idp': { target: apiTarget, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2023',
    // Every browser the console supports (es2023) preloads modules itself: no polyfill in the first download.
    modulePreload: { polyfill: false },
    // Source maps (2.2 MB) would publish the whole source beside the bundle: not in the production build.
    sourcemap: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Everything the entry imports statically (the first download) in one chunk. Left to the
          // automatic splitting, the first download is cut into pieces by which lazy pages share
          // which of its modules — more requests, worse compression, and a size that moves each time
          // a page is added (146 → 148 KiB gzipped with the applications pages; 143 KiB as one chunk).
          groups: [{ name: 'initial', tags: ['$initial'] }],
        },
      },
    },
  },
  // Component tests (*.test.tsx) in happy-dom (docs/decisions/0025: a third faster than jsdom, the
  // same assertions); the console's tests that touch no DOM (*.test.ts) run in
  // Node (vitest.unit.config.ts), where a file starts in a tenth of the time.
  test: {
    name: 'console',
    root,
    environment: 'happy-dom',
    include: ['src/**/*.test.tsx', 'test/**/*.test.tsx'],
    setupFiles: ['test/setup.ts'],
    // One module graph and one document per worker, not per file (docs/decisions/0025: the
    // console's files in 18 s instead of 33): what they keep between tests is reset after every
    // test (setup.ts: rendered trees, notifications, storage; here: spies and global stubs).
    isolate: false,
    restoreMocks: true,
    unstubGlobals: true,
  },
});
