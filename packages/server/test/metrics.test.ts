import { projectIssuerPath } from '@latchkey/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { REFUSALS_PER_CLIENT } from '../src/events/project-events.ts';
import { signedInAccount, uniqueEmail, useTestApp, type SignedIn } from './support/app.ts';
import { Browser } from './support/browser.ts';
import { describeEachDatabase, describeWithDatabase } from './support/databases.ts';
import { projectWithRelyingParty, signInForTokens, type RelyingParty } from './support/relying-party.ts';

const TOKEN = 'metrics-token-0123456789abcdef0123456789abcdef';

/** The samples of a text exposition, by name and labels as written (`name{a="b"}` → value). */
function samples(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    // The text format's sample line: a metric name, optional labels, a value (a Go float: NaN and Inf in any case).
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[^}]*\})?) (-?(?:[0-9.]+(?:e[+-]?[0-9]+)?|nan|[+-]?inf))$/i.exec(line);
    expect(match, `not a sample line: ${line}`).not.toBeNull();
    found.set(match?.[1] as string, Number(match?.[2]));
  }
  return found;
}

/** The sum of every sample whose name and labels start as `prefix` says. */
const total = (all: Map<string, number>, prefix: string) => [...all].filter(([key]) => key.startsWith(prefix)).reduce((sum, [, v]) => sum + v, 0);

// Issue 23 "Metrics and logs": Prometheus's text format at GET /metrics, for the operator only.
describeEachDatabase('metrics', (d) => {
  const t = useTestApp(d, { listen: true, env: { METRICS_TOKEN: TOKEN, PROJECTS_PER_ACCOUNT: '100' } });
  let admin: SignedIn;
  let p: RelyingParty;
  const email = uniqueEmail('metrics');
  const scrape = (authorization?: string) =>
    t.app.inject({ method: 'GET', url: '/metrics', headers: { host: '10.0.0.5:3000', ...(authorization ? { authorization } : {}) } });

  beforeAll(async () => {
    admin = await signedInAccount(t, d.db);
    p = await projectWithRelyingParty(t, admin);
    await signInForTokens(t, new Browser(), p, email);
    // A client that keeps presenting a wrong secret: refused each time, until its refusals are no longer written.
    for (let i = 0; i <= REFUSALS_PER_CLIENT; i++) {
      const res = await fetch(`${t.baseUrl}${projectIssuerPath(p.projectId)}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${p.keys.clientId}:wrong`).toString('base64')}`,
        },
        body: 'grant_type=authorization_code&code=nothing&redirect_uri=https%3A%2F%2Fapp.example.com%2Fcallback',
      });
      expect(res.status).toBe(401);
    }
  });

  it('is served only to the bearer of METRICS_TOKEN', async () => {
    expect((await scrape()).statusCode).toBe(401);
    expect((await scrape(`Bearer ${TOKEN.slice(0, -1)}x`)).statusCode).toBe(401);
    expect((await scrape(`Basic ${TOKEN}`)).statusCode).toBe(401);
    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('lists every family with real values after a sign-in, and no user, client or project in a label', async () => {
    const text = (await scrape(`Bearer ${TOKEN}`)).body;
    const all = samples(text);
    for (const family of [
      'latchkey_http_requests_total',
      'latchkey_http_request_duration_seconds',
      'latchkey_sign_ins_total',
      'latchkey_registrations_total',
      'latchkey_refusals_total',
      'latchkey_token_grants_total',
      'latchkey_mail_total',
      'latchkey_db_query_duration_seconds',
      'latchkey_db_pool_connections',
      'latchkey_db_pool_waiting',
      'latchkey_provider_cache_size',
      'latchkey_provider_cache_evictions_total',
      'latchkey_rate_limit_refusals_total',
      'nodejs_eventloop_lag_seconds',
      'process_cpu_user_seconds_total',
    ])
      expect(text, family).toContain(`# TYPE ${family} `);

    expect(all.get('latchkey_sign_ins_total{result="success"}')).toBe(1);
    expect(all.get('latchkey_token_grants_total{grant_type="authorization_code",result="success"}')).toBe(1);
    expect(all.get('latchkey_token_grants_total{grant_type="client_authentication",result="failed"}')).toBe(REFUSALS_PER_CLIENT + 1);
    expect(all.get('latchkey_refusals_total{action="token",result="failed"}')).toBe(REFUSALS_PER_CLIENT + 1);
    expect(all.get('latchkey_rate_limit_refusals_total{limit="client"}')).toBeGreaterThanOrEqual(1);
    expect(all.get('latchkey_mail_total{kind="login_code",result="sent"}')).toBe(1);
    expect(total(all, 'latchkey_http_requests_total{route="/p/:project/*",method="GET"')).toBeGreaterThan(0);
    expect(total(all, 'latchkey_http_requests_total{route="/p/:project/*",method="POST",status="401"}')).toBe(REFUSALS_PER_CLIENT + 1);
    expect(all.get('latchkey_http_request_duration_seconds_count{route="/p/:project/*",method="POST",status="401"}')).toBe(REFUSALS_PER_CLIENT + 1);
    expect(all.get('latchkey_db_query_duration_seconds_count')).toBeGreaterThan(20);
    expect(all.get('latchkey_provider_cache_size')).toBeGreaterThanOrEqual(1);
    if (d.driver === 'postgres') expect(total(all, 'latchkey_db_pool_connections{')).toBeGreaterThan(0);
    expect(all.get('nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);

    for (const secret of [email, p.keys.clientId, p.projectId, TOKEN, admin.account.email]) expect(text).not.toContain(secret);
  });
});

describeWithDatabase('metrics without METRICS_TOKEN', (d) => {
  const t = useTestApp(d);
  it('has no page', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer anything' } })).statusCode).toBe(404);
  });
});

describe('a METRICS_TOKEN too short', () => {
  it('stops start-up, naming the variable', async () => {
    const { loadConfig } = await import('../src/config.ts');
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be 32 to 256 printable characters/);
  });
});
