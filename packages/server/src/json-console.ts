import { format } from 'node:util';
import { announcements, failures } from './log.ts';

/**
 * Imported first by the server's entry (main.ts): whatever a library prints with `console` (the
 * OpenID provider's runtime notice among them) becomes a line like the server's own (JSON, or
 * text on a terminal: log.ts, docs/decisions/0033), its words in `msg`. Info and debug go to standard output, warnings and
 * errors to standard error.
 */
const out = announcements();
const err = failures();
// eslint-disable-next-line no-control-regex
const words = (args: unknown[]) => format(...args).replace(/\x1b\[[0-9;]*m/g, '');
console.log = (...args: unknown[]) => out.info(words(args));
console.info = (...args: unknown[]) => out.info(words(args));
console.debug = (...args: unknown[]) => out.debug(words(args));
console.warn = (...args: unknown[]) => err.warn(words(args));
console.error = (...args: unknown[]) => err.error(words(args));
