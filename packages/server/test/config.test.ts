import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, passkeysUnavailable } from '../src/config.ts';

function errorOf(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env, '/srv/latchkey');
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`no error for ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('has defaults for everything', () => {
    expect(loadConfig({}, '/srv/latchkey')).toEqual({
      port: 8080,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:8080',
      issuerDomain: 'localhost',
      dataDir: '/srv/latchkey/data',
      databaseUrl: null,
      databaseReadUrl: null,
      databasePreparedStatements: true,
      oidc: null,
      smtpUrl: null,
      mailFrom: 'Latchkey <no-reply@localhost>',
      registration: 'open',
      docsUrl: 'http://localhost:8080/api/docs',
      supportUrl: '',
      logLevel: 'info',
      logFormat: null,
      projectsPerAccount: 10,
      eventRetentionMonths: 25,
      importMaxBytes: 1024 * 1024 * 1024,
      shutdownDelayMs: 0,
      metricsToken: null,
      secretKey: null,
      secretKeyPrevious: null,
      trustProxy: [],
      outgoingAllowedNetworks: [],
    });
  });

  it('ISSUER_DOMAIN: localhost at a localhost PUBLIC_URL, none elsewhere unless set; none turns it off; a DNS name or refused', () => {
    expect(loadConfig({ PUBLIC_URL: 'http://localhost:3000' }).issuerDomain).toBe('localhost');
    expect(loadConfig({ PUBLIC_URL: 'https://id.example.com' }).issuerDomain).toBeNull();
    expect(loadConfig({ PUBLIC_URL: 'http://127.0.0.1:3000' }).issuerDomain).toBeNull();
    expect(loadConfig({ PUBLIC_URL: 'https://id.example.com', ISSUER_DOMAIN: 'ID.Example.com' }).issuerDomain).toBe('id.example.com');
    expect(loadConfig({ ISSUER_DOMAIN: 'none' }).issuerDomain).toBeNull();
    for (const bad of ['https://id.example.com', 'id.example.com:8443', '-x.example.com', 'a..b', '10.0.0.1', 'id_example.com']) {
      expect(() => loadConfig({ ISSUER_DOMAIN: bad }), bad).toThrow(/ISSUER_DOMAIN must be a DNS name/);
    }
  });

  it('derives PUBLIC_URL from PORT and drops a trailing slash; blank means unset', () => {
    expect(loadConfig({ PORT: '9000' }).publicUrl).toBe('http://localhost:9000');
    expect(loadConfig({ PUBLIC_URL: 'https://latchkey.example.com/' }).publicUrl).toBe('https://latchkey.example.com');
    expect(loadConfig({ PORT: '  ', REGISTRATION: '' }).port).toBe(8080);
  });

  it('says when PUBLIC_URL is an IP address, where browsers refuse passkeys (the default names a host)', () => {
    expect(passkeysUnavailable(loadConfig({}))).toBeNull();
    expect(passkeysUnavailable(loadConfig({ PUBLIC_URL: 'https://id.example.com' }))).toBeNull();
    for (const url of ['http://127.0.0.1:8080', 'http://[::1]:8080', 'https://10.0.0.5']) {
      expect(passkeysUnavailable(loadConfig({ PUBLIC_URL: url }))).toMatch(/is an IP address: browsers refuse passkeys there/);
    }
  });

  it('reads every variable', () => {
    const config = loadConfig(
      {
        PORT: '3000',
        HOST: '0.0.0.0',
        PUBLIC_URL: 'https://console.example.com',
        DATA_DIR: '/var/lib/latchkey',
        DATABASE_URL: 'postgresql://u:p@db:5432/latchkey',
        OIDC_ISSUER: 'https://id.example.com/',
        OIDC_CLIENT_ID: 'latchkey',
        OIDC_CLIENT_SECRET: 's3cret',
        SMTP_URL: 'smtps://u:p@mail.example.com:465',
        REGISTRATION: 'closed',
        DOCS_URL: 'https://docs.example.com',
        SUPPORT_URL: 'https://help.example.com',
        LOG_LEVEL: 'warn',
        LOG_FORMAT: 'json',
      },
      '/srv',
    );
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      publicUrl: 'https://console.example.com',
      dataDir: '/var/lib/latchkey',
      databaseUrl: 'postgresql://u:p@db:5432/latchkey',
      oidc: { issuer: 'https://id.example.com/', clientId: 'latchkey', clientSecret: 's3cret' },
      smtpUrl: 'smtps://u:p@mail.example.com:465',
      mailFrom: 'Latchkey <no-reply@console.example.com>',
      registration: 'closed',
      docsUrl: 'https://docs.example.com',
      supportUrl: 'https://help.example.com',
      logLevel: 'warn',
      logFormat: 'json',
    });
    expect(loadConfig({ SUPPORT_URL: 'mailto:help@example.com' }).supportUrl).toBe('mailto:help@example.com');
  });

  const bad: Array<[string, Record<string, string>, string]> = [
    ['PORT', { PORT: 'abc' }, 'Invalid configuration: PORT must be a port number 1-65535'],
    ['PORT', { PORT: '0' }, 'Invalid configuration: PORT must be a port number 1-65535'],
    ['PORT', { PORT: '65536' }, 'Invalid configuration: PORT must be a port number 1-65535'],
    ['HOST', { HOST: 'bad host' }, 'HOST'],
    ['PUBLIC_URL', { PUBLIC_URL: 'latchkey.example.com' }, 'PUBLIC_URL'],
    ['PUBLIC_URL', { PUBLIC_URL: 'ftp://latchkey.example.com' }, 'PUBLIC_URL'],
    ['PUBLIC_URL', { PUBLIC_URL: 'https://example.com/console' }, 'PUBLIC_URL'],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://db/x' }, 'DATABASE_URL'],
    ['OIDC_ISSUER', { OIDC_ISSUER: 'not a url', OIDC_CLIENT_ID: 'a', OIDC_CLIENT_SECRET: 'b' }, 'OIDC_ISSUER'],
    ['OIDC_CLIENT_ID', { OIDC_ISSUER: 'https://id.example.com' }, 'OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together'],
    ['OIDC_CLIENT_SECRET', { OIDC_ISSUER: 'https://id.example.com', OIDC_CLIENT_ID: 'a' }, 'missing: OIDC_CLIENT_SECRET'],
    ['OIDC_ISSUER', { OIDC_CLIENT_ID: 'a', OIDC_CLIENT_SECRET: 'b' }, 'missing: OIDC_ISSUER'],
    ['SMTP_URL', { SMTP_URL: 'http://mail.example.com' }, 'SMTP_URL'],
    ['REGISTRATION', { REGISTRATION: 'invite-only' }, 'Invalid configuration: REGISTRATION must be open or closed'],
    ['DOCS_URL', { DOCS_URL: 'docs' }, 'DOCS_URL'],
    ['SUPPORT_URL', { SUPPORT_URL: 'javascript:alert(1)' }, 'SUPPORT_URL'],
    ['SUPPORT_URL', { SUPPORT_URL: 'mailto:nobody' }, 'SUPPORT_URL'],
    ['LOG_LEVEL', { LOG_LEVEL: 'chatty' }, 'LOG_LEVEL must be one of'],
    ['LOG_FORMAT', { LOG_FORMAT: 'pretty' }, 'LOG_FORMAT must be one of json, text'],
    [
      'DATABASE_READ_URL',
      { DATABASE_READ_URL: 'postgres://replica.example.com/latchkey' },
      'DATABASE_READ_URL names a replica of DATABASE_URL: set DATABASE_URL too',
    ],
    ['SHUTDOWN_DELAY_MS', { SHUTDOWN_DELAY_MS: '-5' }, 'SHUTDOWN_DELAY_MS must be a whole number of milliseconds'],
    ['SHUTDOWN_DELAY_MS', { SHUTDOWN_DELAY_MS: '2.5s' }, 'SHUTDOWN_DELAY_MS'],
    ['IMPORT_MAX_BYTES', { IMPORT_MAX_BYTES: '0' }, 'IMPORT_MAX_BYTES must be a whole number of bytes from 1 to 1073741824'],
    ['IMPORT_MAX_BYTES', { IMPORT_MAX_BYTES: '2147483648' }, 'IMPORT_MAX_BYTES must be a whole number of bytes'],
    ['SECRET_KEY', { SECRET_KEY: 'c2hvcnQ=' }, 'SECRET_KEY must be base64 of 32 random bytes, e.g. the output of: openssl rand -base64 32'],
    ['SECRET_KEY', { SECRET_KEY: `${'A'.repeat(43)}!` }, 'SECRET_KEY must be base64 of 32 random bytes'],
    ['SECRET_KEY_PREVIOUS', { SECRET_KEY_PREVIOUS: 'nope' }, 'SECRET_KEY_PREVIOUS must be base64 of 32 random bytes'],
    ['TRUST_PROXY', { TRUST_PROXY: 'proxy.example.com' }, 'TRUST_PROXY must be a comma-separated list of proxy addresses or CIDR blocks'],
    ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.1,,10.0.0.2' }, 'TRUST_PROXY'],
  ];

  it('reads SECRET_KEY, SECRET_KEY_PREVIOUS and TRUST_PROXY; trusts no proxy by default', () => {
    const key = Buffer.alloc(32, 7);
    const previous = Buffer.alloc(32, 9);
    const config = loadConfig({
      SECRET_KEY: key.toString('base64'),
      SECRET_KEY_PREVIOUS: previous.toString('base64'),
      TRUST_PROXY: ' 10.0.0.1, 192.168.0.0/16 ,::1,fd00::/8',
    });
    expect(config.secretKey?.equals(key)).toBe(true);
    expect(config.secretKeyPrevious?.equals(previous)).toBe(true);
    expect(config.trustProxy).toEqual(['10.0.0.1', '192.168.0.0/16', '::1', 'fd00::/8']);
    expect(loadConfig({})).toMatchObject({ secretKey: null, secretKeyPrevious: null, trustProxy: [] });
  });
  it.each(bad)('names %s when it is invalid (%j)', (variable, env, text) => {
    const error = errorOf(env);
    expect(error.variable).toBe(variable);
    expect(error.message).toContain(variable);
    expect(error.message).toContain(text);
    expect(error.message.startsWith('Invalid configuration: ')).toBe(true);
  });
});
