import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { networksOf } from './networks.ts';
import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * The server's output (issue 23, docs/decisions/0033): every line is one JSON object (pino's: level,
 * time, msg, and the request's id in a request's lines). No line carries a secret, a token, a code
 * or a cookie; the one exception is the console mailer's line, which exists only without SMTP.
 */

/**
 * What the server says to its operator whatever LOG_LEVEL is (the address it is running at, the
 * console mailer's codes without SMTP): the product's output rather than a diagnostic, JSON too.
 */
export function announcements(stream?: DestinationStream): Logger {
  // Synchronous: a line written just before the process exits is not lost.
  return pino({ level: 'info', base: null }, stream ?? pino.destination({ dest: 1, sync: true }));
}

/** Why the server could not start or stop, on standard error, as JSON. */
export function failures(): Logger {
  return pino({ level: 'info', base: null }, pino.destination({ dest: 2, sync: true }));
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
