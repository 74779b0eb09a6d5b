import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { z } from 'zod';
import { IMPORT_FILE_MAX_BYTES } from '@latchkey/domain';

/**
 * The server's configuration, read once from the environment (README "Configuration"). Every
 * variable is optional; anything invalid stops start-up with a message naming the variable.
 */
export interface Config {
  port: number;
  host: string;
  /** The address users reach, without a trailing slash, e.g. `https://latchkey.example.com`. */
  publicUrl: string;
  /**
   * The domain under which a project's issuer gets a host of its own, `{project}.{issuerDomain}`
   * with PUBLIC_URL's scheme and port (docs/decisions/0047); null: none (every new project's issuer
   * is at `{PUBLIC_URL}/p/{project}`).
   */
  issuerDomain: string | null;
  /** Absolute folder of the embedded database (unused when `databaseUrl` is set). */
  dataDir: string;
  /** `postgres://…`: use this PostgreSQL server instead of the embedded database. */
  databaseUrl: string | null;
  /** A read replica of `databaseUrl` for lists that may be a few seconds stale (docs/decisions/0035); null: none. */
  databaseReadUrl: string | null;
  /** Whether the sign-in path's statements are prepared once per connection (docs/decisions/0055); off behind PgBouncer before 1.21. */
  databasePreparedStatements: boolean;
  /** An external OpenID provider; null: the built-in one under `/idp`. */
  oidc: ExternalOidcConfig | null;
  /** `smtp://…` or `smtps://…`; null: sign-in codes are written to the server's output. */
  smtpUrl: string | null;
  /** Sender of the sign-in code mails. */
  mailFrom: string;
  registration: 'open' | 'closed';
  docsUrl: string;
  /** Empty when no support desk is configured. */
  supportUrl: string;
  logLevel: (typeof LOG_LEVELS)[number];
  /** LOG_FORMAT: `json` or `text` lines; null: text on a terminal, JSON anywhere else (log.ts). */
  logFormat: (typeof LOG_FORMATS)[number] | null;
  /** How many projects an account without a global permission may create (self-service sign-up). */
  projectsPerAccount: number;
  /** Months of audit events kept (whole monthly partitions are dropped after it; docs/decisions/0014). */
  eventRetentionMonths: number;
  /** The largest file a user import takes, in bytes (413 beyond; docs/decisions/0052): IMPORT_MAX_BYTES, at most and by default 1 GiB. */
  importMaxBytes: number;
  /**
   * At SIGTERM: how long /readyz answers 503 while requests are still taken, so load balancers
   * stop sending them (their check interval), before the server stops listening (issue 23).
   */
  shutdownDelayMs: number;
  /** The bearer token GET /metrics asks for (docs/decisions/0032); null: no metrics page. */
  metricsToken: string | null;
  /** The master key (32 bytes) from SECRET_KEY; null: `{dataDir}/secret.key` (README "Secrets and backups"). */
  secretKey: Buffer | null;
  /** The key before a rotation: what was sealed under it is still read, and sealed again at start. */
  secretKeyPrevious: Buffer | null;
  /** Proxies whose X-Forwarded-For/-Proto are believed (addresses or CIDRs); empty: none. */
  trustProxy: string[];
  /**
   * Networks (addresses or CIDRs) the server may call although they are not public: loopback,
   * private and link-local addresses are refused otherwise (http/outgoing.ts). Empty: none.
   */
  outgoingAllowedNetworks: string[];
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

// README "Configuration": without DOCS_URL the documentation link opens this server's own API
// reference; without SUPPORT_URL there is no support desk to link to, so the console hides the link
// rather than pointing at an address nobody answers (docs/decisions/0008).
export const DOCS_PATH = '/api/docs';

/** Issue 7: self-service sign-up stays open, but an account without a global permission may create this many projects. */
export const DEFAULT_PROJECTS_PER_ACCOUNT = 10;
/** Two full calendar years back from the current month, so the dashboard's last year is always whole. */
export const DEFAULT_EVENT_RETENTION_MONTHS = 25;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export const LOG_FORMATS = ['json', 'text'] as const;

type Env = Record<string, string | undefined>;

function isUrlWith(value: string, protocols: readonly string[], extra: (url: URL) => boolean = () => true): boolean {
  try {
    const url = new URL(value);
    return protocols.includes(url.protocol) && url.hostname.length > 0 && extra(url);
  } catch {
    return false;
  }
}

/** base64 of exactly 32 bytes (e.g. `openssl rand -base64 32`). */
const secretKeyOf = (name: string) =>
  z
    .string()
    .refine((v) => /^[A-Za-z0-9+/]+={0,2}$/.test(v) && Buffer.from(v, 'base64').length === 32, {
      error: `${name} must be base64 of 32 random bytes, e.g. the output of: openssl rand -base64 32`,
    })
    .transform((v) => Buffer.from(v, 'base64'));

/** One proxy address or CIDR block: 10.0.0.1, 10.0.0.0/8, ::1, fd00::/8. */
export function isAddressOrCidr(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/** A DNS name: labels of letters, digits and inner hyphens, at most 63 characters each, 253 in all. */
function isDnsName(value: string): boolean {
  return value.length <= 253 && value.split('.').every((label) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(label));
}

/**
 * docs/decisions/0047: ISSUER_DOMAIN as set (`none`: off); unset, `localhost` when PUBLIC_URL's host
 * is localhost (browsers resolve *.localhost to loopback, no DNS needed), else none (a project host
 * under another domain needs the operator's wildcard DNS and certificate).
 */
function issuerDomainOf(value: string | undefined, publicUrl: string): string | null {
  if (value === 'none') return null;
  if (value !== undefined) return value;
  return new URL(publicUrl).hostname === 'localhost' ? 'localhost' : null;
}

/** Unset and blank both mean "use the default". */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : typeof v === 'string' ? v.trim() : v), schema.optional());

const urlOf = (name: string, protocols: readonly string[], what: string, extra?: (url: URL) => boolean) =>
  z.string().refine((v) => isUrlWith(v, protocols, extra), { error: `${name} must be ${what}` });

// One schema per variable; each message names its variable (README "Configuration").
const envSchema = z
  .object({
    PORT: optional(
      z
        .string()
        .regex(/^\d+$/, { error: 'PORT must be a port number 1-65535' })
        .transform(Number)
        .pipe(z.number().int().min(1, { error: 'PORT must be a port number 1-65535' }).max(65535, { error: 'PORT must be a port number 1-65535' })),
    ),
    HOST: optional(z.string().regex(/^[^\s/]+$/, { error: 'HOST must be a host name or an IP address to bind' })),
    // Cookies, the sign-in redirect and the provider's issuer all hang off the origin: no sub-path.
    PUBLIC_URL: optional(
      urlOf(
        'PUBLIC_URL',
        ['http:', 'https:'],
        'an http(s) address without a path, e.g. https://latchkey.example.com',
        (url) => url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password,
      ),
    ),
    // docs/decisions/0047: `none` turns projects' own hosts off; a DNS name, lower case, no port.
    ISSUER_DOMAIN: optional(
      z
        .string()
        .transform((v) => v.toLowerCase())
        .refine((v) => v === 'none' || (isDnsName(v) && isIP(v) === 0), {
          error: 'ISSUER_DOMAIN must be a DNS name without scheme or port (e.g. id.example.com), or none',
        }),
    ),
    DATA_DIR: optional(z.string()),
    DATABASE_URL: optional(urlOf('DATABASE_URL', ['postgres:', 'postgresql:'], 'a postgres:// or postgresql:// URL')),
    DATABASE_READ_URL: optional(urlOf('DATABASE_READ_URL', ['postgres:', 'postgresql:'], 'a postgres:// or postgresql:// URL')),
    OIDC_ISSUER: optional(urlOf('OIDC_ISSUER', ['http:', 'https:'], 'the http(s) address of an OpenID provider', (url) => !url.search && !url.hash)),
    OIDC_CLIENT_ID: optional(z.string()),
    OIDC_CLIENT_SECRET: optional(z.string()),
    SMTP_URL: optional(urlOf('SMTP_URL', ['smtp:', 'smtps:'], 'an smtp:// or smtps:// URL')),
    SMTP_FROM: optional(z.string().max(320, { error: 'SMTP_FROM is too long' })),
    DATABASE_PREPARED_STATEMENTS: optional(z.enum(['on', 'off'], { error: 'DATABASE_PREPARED_STATEMENTS must be on or off' })),
    REGISTRATION: optional(z.enum(['open', 'closed'], { error: 'REGISTRATION must be open or closed' })),
    DOCS_URL: optional(urlOf('DOCS_URL', ['http:', 'https:'], 'an http(s) URL')),
    SUPPORT_URL: optional(
      z.string().refine((v) => isUrlWith(v, ['http:', 'https:']) || /^mailto:[^\s@]+@[^\s@]+$/.test(v), {
        error: 'SUPPORT_URL must be an http(s) URL or a mailto: address',
      }),
    ),
    LOG_LEVEL: optional(z.enum(LOG_LEVELS, { error: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })),
    LOG_FORMAT: optional(z.enum(LOG_FORMATS, { error: `LOG_FORMAT must be one of ${LOG_FORMATS.join(', ')}` })),
    PROJECTS_PER_ACCOUNT: optional(
      z
        .string()
        .regex(/^\d{1,6}$/, { error: 'PROJECTS_PER_ACCOUNT must be a whole number from 0 to 999999' })
        .transform(Number),
    ),
    EVENT_RETENTION_MONTHS: optional(
      z
        .string()
        .regex(/^\d{1,4}$/, { error: 'EVENT_RETENTION_MONTHS must be a whole number of months from 1 to 9999' })
        .transform(Number)
        .refine((n) => n >= 1, { error: 'EVENT_RETENTION_MONTHS must be a whole number of months from 1 to 9999' }),
    ),
    IMPORT_MAX_BYTES: optional(
      z
        .string()
        .regex(/^\d{1,10}$/, { error: `IMPORT_MAX_BYTES must be a whole number of bytes from 1 to ${IMPORT_FILE_MAX_BYTES}` })
        .transform(Number)
        .refine((n) => n >= 1 && n <= IMPORT_FILE_MAX_BYTES, {
          error: `IMPORT_MAX_BYTES must be a whole number of bytes from 1 to ${IMPORT_FILE_MAX_BYTES}`,
        }),
    ),
    SHUTDOWN_DELAY_MS: optional(
      z
        .string()
        .regex(/^\d{1,6}$/, { error: 'SHUTDOWN_DELAY_MS must be a whole number of milliseconds from 0 to 999999' })
        .transform(Number),
    ),
    METRICS_TOKEN: optional(
      z.string().regex(/^[\x21-\x7e]{32,256}$/, {
        error: 'METRICS_TOKEN must be 32 to 256 printable characters without spaces, e.g. the output of: openssl rand -hex 32',
      }),
    ),
    SECRET_KEY: optional(secretKeyOf('SECRET_KEY')),
    SECRET_KEY_PREVIOUS: optional(secretKeyOf('SECRET_KEY_PREVIOUS')),
    TRUST_PROXY: optional(
      z
        .string()
        .transform((v) => v.split(',').map((entry) => entry.trim()))
        .refine((entries) => entries.every(isAddressOrCidr), {
          error: 'TRUST_PROXY must be a comma-separated list of proxy addresses or CIDR blocks, e.g. 10.0.0.1,192.168.0.0/16',
        }),
    ),
    OUTGOING_ALLOWED_NETWORKS: optional(
      z
        .string()
        .transform((v) => v.split(',').map((entry) => entry.trim()))
        .refine((entries) => entries.every(isAddressOrCidr), {
          error: 'OUTGOING_ALLOWED_NETWORKS must be a comma-separated list of addresses or CIDR blocks, e.g. 10.0.0.0/8,fd00::/8',
        }),
    ),
  })
  .superRefine((env, ctx) => {
    if (env.DATABASE_READ_URL !== undefined && env.DATABASE_URL === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_READ_URL'],
        message: 'DATABASE_READ_URL names a replica of DATABASE_URL: set DATABASE_URL too (the embedded database has no replica)',
      });
    }
    const names = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const;
    const missing = names.filter((n) => env[n] === undefined);
    if (missing.length > 0 && missing.length < names.length) {
      ctx.addIssue({
        code: 'custom',
        path: [missing[0] as string],
        message: `OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together (missing: ${missing.join(', ')})`,
      });
    }
  });

/** Pure: reads `env` (normally `process.env`), throws a ConfigError naming the first bad variable. */
export function loadConfig(env: Env, cwd: string = process.cwd()): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = String(issue?.path[0] ?? 'environment');
    const message = issue?.message.includes(variable) ? issue.message : `${variable} is invalid`;
    throw new ConfigError(variable, message);
  }
  const e = parsed.data;
  const port = e.PORT ?? 8080;
  // WebAuthn refuses IP-address origins, so the default names the host (docs/decisions/0013).
  const publicUrl = e.PUBLIC_URL ? new URL(e.PUBLIC_URL).origin : `http://localhost:${port}`;
  return {
    port,
    host: e.HOST ?? '127.0.0.1',
    publicUrl,
    issuerDomain: issuerDomainOf(e.ISSUER_DOMAIN, publicUrl),
    dataDir: resolve(cwd, e.DATA_DIR ?? './data'),
    databaseUrl: e.DATABASE_URL ?? null,
    databaseReadUrl: e.DATABASE_READ_URL ?? null,
    databasePreparedStatements: e.DATABASE_PREPARED_STATEMENTS !== 'off',
    oidc:
      e.OIDC_ISSUER && e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET
        ? { issuer: e.OIDC_ISSUER, clientId: e.OIDC_CLIENT_ID, clientSecret: e.OIDC_CLIENT_SECRET }
        : null,
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.SMTP_FROM ?? `Latchkey <no-reply@${new URL(publicUrl).hostname}>`,
    registration: e.REGISTRATION ?? 'open',
    docsUrl: e.DOCS_URL ?? `${publicUrl}${DOCS_PATH}`,
    supportUrl: e.SUPPORT_URL ?? '',
    logLevel: e.LOG_LEVEL ?? 'info',
    logFormat: e.LOG_FORMAT ?? null,
    projectsPerAccount: e.PROJECTS_PER_ACCOUNT ?? DEFAULT_PROJECTS_PER_ACCOUNT,
    eventRetentionMonths: e.EVENT_RETENTION_MONTHS ?? DEFAULT_EVENT_RETENTION_MONTHS,
    importMaxBytes: e.IMPORT_MAX_BYTES ?? IMPORT_FILE_MAX_BYTES,
    shutdownDelayMs: e.SHUTDOWN_DELAY_MS ?? 0,
    metricsToken: e.METRICS_TOKEN ?? null,
    secretKey: e.SECRET_KEY ?? null,
    secretKeyPrevious: e.SECRET_KEY_PREVIOUS ?? null,
    trustProxy: e.TRUST_PROXY ?? [],
    outgoingAllowedNetworks: e.OUTGOING_ALLOWED_NETWORKS ?? [],
  };
}

/**
 * Why end users cannot use passkeys at this address, or null. Browsers refuse WebAuthn on an IP
 * address (its relying party id must be a domain), so the issuers' passkey pages would fail there.
 */
export function passkeysUnavailable(config: Pick<Config, 'publicUrl'>): string | null {
  const host = new URL(config.publicUrl).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) === 0) return null;
  return `PUBLIC_URL ${config.publicUrl} is an IP address: browsers refuse passkeys there, so end users cannot sign in with one. Use a host name, e.g. http://localhost:${new URL(config.publicUrl).port || 80}`;
}

/** Served over HTTPS: cookies get the Secure flag. */
export function isSecure(config: Pick<Config, 'publicUrl'>): boolean {
  return config.publicUrl.startsWith('https:');
}
