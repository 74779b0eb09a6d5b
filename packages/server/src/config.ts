import { resolve } from 'node:path';

/**
 * The server's configuration, read once from the environment (README "Configuration"). Every
 * variable is optional; anything invalid stops start-up with a message naming the variable.
 */
export interface Config {
  port: number;
  host: string;
  /** The address users reach, without a trailing slash, e.g. `https://latchkey.example.com`. */
  publicUrl: string;
  /** Absolute folder of the embedded database (unused when `databaseUrl` is set). */
  dataDir: string;
  /** `postgres://…`: use this PostgreSQL server instead of the embedded database. */
  databaseUrl: string | null;
  /** An external OpenID provider; null: the built-in one under `/idp`. */
  oidc: ExternalOidcConfig | null;
  /** `smtp://…` or `smtps://…`; null: sign-in codes are written to the server's output. */
  smtpUrl: string | null;
  /** Sender of the sign-in code mails. */
  mailFrom: string;
  registration: 'open' | 'closed';
  docsUrl: string;
  supportUrl: string;
}

export interface ExternalOidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, message: string) {
    super(`Invalid configuration: ${message}`);
    this.name = 'ConfigError';
    this.variable = variable;
  }
}

// README: "DOCS_URL — project documentation", "SUPPORT_URL — project issues".
export const DEFAULT_DOCS_URL = 'https://github.com/latchkey/latchkey#readme';
export const DEFAULT_SUPPORT_URL = 'https://github.com/latchkey/latchkey/issues';

type Env = Record<string, string | undefined>;

/** The value of `name`, or undefined when unset or blank. */
function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function parseUrl(value: string, protocols: readonly string[]): URL | null {
  try {
    const url = new URL(value);
    return protocols.includes(url.protocol) && url.hostname ? url : null;
  } catch {
    return null;
  }
}

function port(env: Env): number {
  const raw = read(env, 'PORT');
  if (raw === undefined) return 8080;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isInteger(n) || n < 1 || n > 65535) {
    throw new ConfigError('PORT', 'PORT must be a port number 1-65535');
  }
  return n;
}

function publicUrl(env: Env, listenPort: number): string {
  const raw = read(env, 'PUBLIC_URL');
  if (raw === undefined) return `http://127.0.0.1:${listenPort}`;
  const url = parseUrl(raw, ['http:', 'https:']);
  // Cookies, the sign-in redirect and the provider's issuer all hang off the origin: no sub-path.
  if (!url || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username || url.password) {
    throw new ConfigError('PUBLIC_URL', 'PUBLIC_URL must be an http(s) address without a path, e.g. https://latchkey.example.com');
  }
  return url.origin;
}

function httpUrl(env: Env, name: string, fallback: string): string {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!parseUrl(raw, ['http:', 'https:'])) throw new ConfigError(name, `${name} must be an http(s) URL`);
  return raw;
}

function oidc(env: Env): ExternalOidcConfig | null {
  const names = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const;
  const [issuer, clientId, clientSecret] = names.map((n) => read(env, n));
  if (issuer === undefined && clientId === undefined && clientSecret === undefined) return null;
  const missing = names.filter((n) => read(env, n) === undefined);
  if (missing.length > 0) {
    throw new ConfigError(
      missing[0] as string,
      `OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together (missing: ${missing.join(', ')})`,
    );
  }
  const url = parseUrl(issuer as string, ['http:', 'https:']);
  if (!url || url.search || url.hash) throw new ConfigError('OIDC_ISSUER', 'OIDC_ISSUER must be the http(s) address of an OpenID provider');
  return { issuer: (issuer as string).replace(/\/+$/, ''), clientId: clientId as string, clientSecret: clientSecret as string };
}

/** Pure: reads `env` (normally `process.env`), throws a ConfigError naming the first bad variable. */
export function loadConfig(env: Env, cwd: string = process.cwd()): Config {
  const listenPort = port(env);
  const host = read(env, 'HOST') ?? '127.0.0.1';
  if (/\s|\//.test(host)) throw new ConfigError('HOST', 'HOST must be a host name or an IP address to bind');
  const base = publicUrl(env, listenPort);

  const databaseUrl = read(env, 'DATABASE_URL') ?? null;
  if (databaseUrl !== null && !parseUrl(databaseUrl, ['postgres:', 'postgresql:'])) {
    throw new ConfigError('DATABASE_URL', 'DATABASE_URL must be a postgres:// or postgresql:// URL');
  }

  const smtpUrl = read(env, 'SMTP_URL') ?? null;
  if (smtpUrl !== null && !parseUrl(smtpUrl, ['smtp:', 'smtps:'])) {
    throw new ConfigError('SMTP_URL', 'SMTP_URL must be an smtp:// or smtps:// URL');
  }
  const mailFrom = read(env, 'SMTP_FROM') ?? `Latchkey <no-reply@${new URL(base).hostname}>`;

  const registration = read(env, 'REGISTRATION') ?? 'open';
  if (registration !== 'open' && registration !== 'closed') {
    throw new ConfigError('REGISTRATION', 'REGISTRATION must be open or closed');
  }

  return {
    port: listenPort,
    host,
    publicUrl: base,
    dataDir: resolve(cwd, read(env, 'DATA_DIR') ?? './data'),
    databaseUrl,
    oidc: oidc(env),
    smtpUrl,
    mailFrom,
    registration,
    docsUrl: httpUrl(env, 'DOCS_URL', DEFAULT_DOCS_URL),
    supportUrl: httpUrl(env, 'SUPPORT_URL', DEFAULT_SUPPORT_URL),
  };
}

/** Served over HTTPS: cookies get the Secure flag. */
export function isSecure(config: Pick<Config, 'publicUrl'>): boolean {
  return config.publicUrl.startsWith('https:');
}
