import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, inject } from 'vitest';
import { XSRF_COOKIE, XSRF_HEADER } from '@latchkey/domain';
import { buildApp, type LatchkeyApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import type { Db } from '../../src/db/db.ts';
import { SESSION_COOKIE } from '../../src/http/cookies.ts';
import { grantPermissions, insertAccount, type AccountRow } from '../../src/modules/accounts/accounts.repository.ts';
import { sessionIdRef } from '../../src/modules/session/session.service.ts';
import { consoleMailer, lineWriter } from '../../src/mail/mailer.ts';
import { RecordingMailer, TestClock } from './fakes.ts';
import { freePort } from './free-port.ts';

export { freePort };

export interface TestApp extends LatchkeyApp {
  config: Config;
  clock: TestClock;
  mailer: RecordingMailer;
  /** Where the app listens (only with `listen: true`), e.g. http://127.0.0.1:41234 */
  baseUrl: string;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Listen on a real loopback port (flows through the provider); otherwise use inject. */
  listen?: boolean;
  /** The port to listen on (default: a free one). */
  port?: number;
  consoleDist?: string;
  /** A read replica's stand-in for the reads that may use one (DATABASE_READ_URL; read-replica.test.ts). */
  readDb?: Db;
  /** Every log line of the app, at every level, goes here (logs.test.ts reads them). */
  logTo?: { write(line: string): void };
  /** With `logTo`: each mail is also the console mailer's line there, as without SMTP (it holds the code). */
  mailLines?: boolean;
}

/**
 * The master key of every test app in the run (global-setup.ts), so apps started one after another
 * on one database read each other's sealed values, as instances of one deployment do, and read the
 * server keys the template was given at its first start.
 */
export const TEST_SECRET_KEY = providedSecretKey() || randomBytes(32).toString('base64');

/** The run's master key from the server project's global setup; none outside it (a script, a bench). */
function providedSecretKey(): string | undefined {
  try {
    return inject('testSecretKey');
  } catch {
    return undefined;
  }
}

/**
 * The real app on a test database; only mail and time are fakes. Closing it leaves the database open.
 * It trusts X-Forwarded-For from loopback (TRUST_PROXY), so each test Browser is a client address
 * of its own (Browser's `clientIp`) and one test's rate limits never reach another's.
 */
export async function startTestApp(db: Db, options: TestAppOptions = {}): Promise<TestApp> {
  const port = options.listen ? (options.port ?? (await freePort())) : 8080;
  const config = loadConfig({
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SECRET_KEY: TEST_SECRET_KEY,
    TRUST_PROXY: '127.0.0.1,::1',
    // The applications' back-channel logout URIs are receivers the tests run on loopback.
    OUTGOING_ALLOWED_NETWORKS: '127.0.0.0/8,::1',
    ...options.env,
  });
  const clock = new TestClock();
  const mailer = new RecordingMailer(options.logTo && options.mailLines ? consoleMailer(lineWriter(options.logTo)) : undefined);
  const built = await buildApp({
    config,
    db,
    clock,
    mailer,
    logger: options.logTo ? { level: 'trace', stream: options.logTo } : process.env.TEST_LOG ? { level: 'error' } : false,
    consoleDist: options.consoleDist ?? '/nonexistent/console/dist',
    ...(options.readDb ? { readDb: options.readDb } : {}),
  });
  if (options.listen) await built.app.listen({ host: '127.0.0.1', port });
  return { ...built, close: () => built.app.close(), config, clock, mailer, baseUrl: config.publicUrl };
}

export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | number | undefined>;
}

/** Calls /api through inject with a session's cookies, like the console does (XSRF header on unsafe methods). */
export class ApiClient {
  readonly app: FastifyInstance;
  readonly session: { sessionId: string; xsrfToken: string } | null;
  constructor(app: FastifyInstance, session: { sessionId: string; xsrfToken: string } | null) {
    this.app = app;
    this.session = session;
  }

  async call<T = unknown>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    body?: unknown,
    options: { xsrf?: boolean | string; headers?: Record<string, string> } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.session) {
      headers.cookie = `${SESSION_COOKIE}=${this.session.sessionId}; ${XSRF_COOKIE}=${this.session.xsrfToken}`;
      const xsrf = options.xsrf ?? true;
      if (method !== 'GET' && xsrf !== false) headers[XSRF_HEADER] = typeof xsrf === 'string' ? xsrf : this.session.xsrfToken;
    }
    const request: InjectOptions = { method, url: path, headers };
    if (body !== undefined) request.payload = body as InjectOptions['payload'];
    const response = await this.app.inject(request);
    const text = response.body;
    let parsed: unknown = text;
    if (String(response.headers['content-type'] ?? '').includes('json') && text) parsed = JSON.parse(text);
    return { status: response.statusCode, body: parsed as T, headers: response.headers };
  }

  get<T = unknown>(path: string, options?: { headers?: Record<string, string> }) {
    return this.call<T>('GET', path, undefined, options);
  }
  post<T = unknown>(path: string, body?: unknown, options?: { xsrf?: boolean | string; headers?: Record<string, string> }) {
    return this.call<T>('POST', path, body, options);
  }
  put<T = unknown>(path: string, body?: unknown, options?: { xsrf?: boolean | string; headers?: Record<string, string> }) {
    return this.call<T>('PUT', path, body, options);
  }
}

let counter = 0;
/** A fresh address per call, so tests never share accounts. */
export function uniqueEmail(label = 'user'): string {
  counter += 1;
  return `${label}-${Date.now().toString(36)}-${counter}@example.test`;
}

export interface SignedIn {
  account: AccountRow;
  api: ApiClient;
  session: { sessionId: string; xsrfToken: string };
}

/**
 * An account with `permissions`, signed in — without the provider dance: the account and its
 * session go through the real repositories and session service, never through an HTTP backdoor.
 */
export async function signedInAccount(t: TestApp, db: Db, permissions: string[] = [], email = uniqueEmail()): Promise<SignedIn> {
  const account = await insertAccount(db, { id: randomUUID(), email, createdAt: t.clock.now() });
  await grantPermissions(db, account.id, permissions);
  const session = await t.services.sessions.createSession(account.id, null);
  return { account, api: new ApiClient(t.app, session), session };
}

export function anonymous(t: TestApp): ApiClient {
  return new ApiClient(t.app, null);
}

/** The key of a console session's row in the sessions table (a keyed hash of the cookie value). */
export function storedSessionRef(t: TestApp, sessionId: string): string {
  return sessionIdRef(t.services.secretBox, sessionId);
}

/**
 * The real app for the tests of one describeEachDatabase block: started before them on the block's
 * database, closed after them. The answer stands for the app once started (use it inside tests and
 * hooks), so each test file has one line of setup instead of its own copy of the hooks.
 */
export function useTestApp(t: { readonly db: Db }, options: TestAppOptions = {}): TestApp {
  let current: TestApp | null = null;
  beforeAll(async () => {
    current = await startTestApp(t.db, options);
  });
  afterAll(async () => {
    await current?.close();
    current = null;
  });
  return new Proxy({} as TestApp, {
    get(_target, key) {
      if (!current) throw new Error('the test app is not started yet (use it inside tests or hooks)');
      const value: unknown = Reflect.get(current, key);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(current) : value;
    },
  });
}
