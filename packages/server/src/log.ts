import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { isatty } from 'node:tty';
import { networksOf } from './networks.ts';
import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * The server's output (issue 23, docs/decisions/0033; issue 38): one line per event, as a JSON
 * object (pino's: level, time, msg, and the request's id in every line written while serving a
 * request) for machines, or as words for a person at a terminal (`text`: LOG_FORMAT, else text
 * when the output is a terminal). No line carries a secret, a token, a code or a cookie; the one
 * exception is the console mailer's line, which exists only without SMTP.
 */

/** How lines are written: `json` (one object a line) or `text` (a person's line). */
export type LineFormat = 'json' | 'text';

/** LOG_FORMAT when set (config.ts checks it), else `text` on a terminal and `json` anywhere else. */
export function lineFormatFor(fd: 1 | 2, setting: string | undefined = process.env.LOG_FORMAT, terminal = isatty(fd)): LineFormat {
  if (setting === 'json' || setting === 'text') return setting;
  return terminal ? 'text' : 'json';
}

/** The id of the request being served in this async context (Fastify's onRequest and preValidation enter it). */
const requestScope = new AsyncLocalStorage<string>();

/** Runs `next` (what follows in serving the request) with `requestId` as the current request's id. */
export function inRequestScope(requestId: string, next: () => void): void {
  requestScope.run(requestId, next);
}

/** The id of the request being served in this async context, or undefined outside one (a background job's). */
export function currentRequestId(): string | undefined {
  return requestScope.getStore();
}

/**
 * Every logger's mixin: a line written while serving a request names its id even when it is not
 * the request's own logger (the mailer's line, a library's console line, the app's log). A request's
 * own child logger carries it as a binding already.
 */
function requestIdOfLine(_merged: object, _level: number, logger: Logger): { requestId?: string } {
  const requestId = currentRequestId();
  if (requestId === undefined) return {};
  const bindings: unknown = Reflect.get(logger, pino.symbols.chindingsSym);
  return typeof bindings === 'string' && bindings.includes('"requestId":') ? {} : { requestId };
}

/**
 * Fastify's listen announces the socket (`Server listening at http://127.0.0.1:8080`), an address
 * passkeys refuse and not the one to open: main.ts passes this as its text, demoted to debug, so
 * the only address at info is PUBLIC_URL's (`Latchkey is running at …`).
 */
export const socketListening = (address: string): string => `${SOCKET_LISTENING}${address}`;
const SOCKET_LISTENING = 'socket listening on ';

function demoteSocketLine(this: Logger, args: Parameters<pino.LogFn>, method: pino.LogFn, level: number): void {
  if (level === pino.levels.values.info && typeof args[0] === 'string' && args[0].startsWith(SOCKET_LISTENING)) {
    this.debug(args[0]);
    return;
  }
  method.apply(this, args);
}

const LEVEL_NAMES: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** Fields a person at a terminal does not need on every line. */
const MACHINE_FIELDS = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'err', 'requestId']);

function fieldText(value: unknown): string {
  return typeof value === 'string' && /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
}

/**
 * One JSON line as a person reads it: `18:51:27 INFO  Latchkey is running at http://localhost:8080`,
 * then the line's other fields as `name=value`, the request's id last, and an error's stack below.
 */
export function textLine(json: string): string {
  const line = JSON.parse(json) as Record<string, unknown>;
  const time = new Date(typeof line.time === 'number' ? line.time : Date.now()).toTimeString().slice(0, 8);
  const level = (LEVEL_NAMES[Number(line.level)] ?? String(line.level)).padEnd(5);
  const words = [`${time} ${level} ${typeof line.msg === 'string' ? line.msg : ''}`];
  for (const [name, value] of Object.entries(line)) if (!MACHINE_FIELDS.has(name) && value !== undefined) words.push(`${name}=${fieldText(value)}`);
  if (line.requestId !== undefined) words.push(`requestId=${fieldText(line.requestId)}`);
  const err = line.err as { type?: string; message?: string; stack?: string } | undefined;
  const below = err ? `\n    ${(err.stack ?? `${err.type ?? 'Error'}: ${err.message ?? ''}`).replaceAll('\n', '\n    ')}` : '';
  return `${words.join(' ')}${below}\n`;
}

/** A destination that writes each of pino's JSON lines as a text line to `fd`, synchronously (pino's own writer, which waits out a full pipe). */
export function textDestination(fd: 1 | 2): DestinationStream {
  const out = pino.destination({ dest: fd, sync: true });
  return { write: (json: string) => void out.write(textLine(json)) };
}

function destinationFor(fd: 1 | 2, format: LineFormat, sync: boolean): DestinationStream {
  return format === 'text' ? textDestination(fd) : pino.destination({ dest: fd, sync });
}

/**
 * An error as a line holds it: what it is, its words, where it came from and its cause — never the
 * rest of what it carries (Node's HTTP parser error holds the refused request's bytes, cookies and
 * Authorization header included, as `rawPacket`; a library's error may hold a response or a body).
 */
export function errorOfLine(error: unknown, depth = 0): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error };
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
  return {
    type: error.name,
    message: error.message,
    ...(error.stack ? { stack: error.stack } : {}),
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof statusCode === 'number' ? { statusCode } : {}),
    ...(error.cause !== undefined && depth < 3 ? { cause: errorOfLine(error.cause, depth + 1) } : {}),
  };
}

/** The options every logger of the server shares. */
function shared(level: string): pino.LoggerOptions {
  return { level, mixin: requestIdOfLine, serializers: { err: errorOfLine }, hooks: { logMethod: demoteSocketLine } };
}

/**
 * The server's diagnostic log (Fastify's, at LOG_LEVEL): to `stream` when given (tests read it,
 * always JSON), else to standard output in `format`.
 */
export function serverLog(options: { level: string; stream?: DestinationStream; format?: LineFormat }): Logger {
  const format = options.format ?? lineFormatFor(1);
  return pino(shared(options.level), options.stream ?? destinationFor(1, format, false));
}

/**
 * What the server says to its operator whatever LOG_LEVEL is (the address it is running at, the
 * console mailer's codes without SMTP): the product's output rather than a diagnostic.
 */
export function announcements(stream?: DestinationStream): Logger {
  // Synchronous: a line written just before the process exits is not lost.
  return pino({ ...shared('info'), base: null }, stream ?? destinationFor(1, lineFormatFor(1), true));
}

/** Why the server could not start or stop, on standard error. */
export function failures(): Logger {
  return pino({ ...shared('info'), base: null }, destinationFor(2, lineFormatFor(2), true));
}

/** A request id a trusted proxy may pass on: short, and of characters that need no escaping anywhere. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Fastify's genReqId: the X-Request-Id a proxy TRUST_PROXY names sent, else a new UUID (a client's
 * own id is not taken: it could forge another request's id in the logs).
 */
export function requestIdOf(trustProxy: readonly string[]): (request: IncomingMessage) => string {
  const trusted = networksOf(trustProxy);
  return (request) => {
    const given = request.headers['x-request-id'];
    const from = (request.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
    const fromProxy = from !== '' && trusted.check(from, isIP(from) === 6 ? 'ipv6' : 'ipv4');
    return fromProxy && typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  };
}
