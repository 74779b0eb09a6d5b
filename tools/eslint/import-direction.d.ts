import type { ESLint } from 'eslint';

/** The local plugin of import directions (import-direction.js), for the test that runs it. */
declare const plugin: ESLint.Plugin;
export default plugin;
