import base from './vite.config.ts';

// The console's tests that touch no DOM (*.test.ts: routes, list state, catalogues, formats, the
// API client's rules), in Node with the same plugins; the catalogue check of setup-texts.ts holds
// for them too. A file that needs a document says so itself (`@vitest-environment happy-dom`).
export default {
  ...base,
  test: {
    ...base.test,
    name: 'console-unit',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    setupFiles: ['test/setup-texts.ts'],
    // Each file in modules of its own: i18n-namespaces.test.ts reads the catalogues as the first
    // download leaves them, before any lazily loaded part has added its texts (another file's).
    isolate: true,
  },
};
