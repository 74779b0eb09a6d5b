import { beforeEach, expect, it } from 'vitest';
import {
  INTERACTION_LIMITS,
  INTERACTION_WINDOWS_KEY,
  interactionLimitsOf,
  MAX_AUTHORIZATION_QUERY,
  SERVER_WIDE_STRIPES,
  type InteractionLimit,
} from '../src/oidc/issuer-provider.ts';
import { signedInAccount, useTestApp } from './support/app.ts';
import { describeWithDatabase } from './support/databases.ts';
import { createApp, createKeys, createProject, REDIRECT } from './support/fixtures.ts';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef0123456789abcdef';

// Issue 35: anyone who signs up makes issuers, so the projects' issuers together are bounded too.
describeWithDatabase('interactions are bounded for the whole server, not only per issuer', (t) => {
  const app = useTestApp(t, { env: { METRICS_TOKEN, PROJECTS_PER_ACCOUNT: '100' } });

  beforeEach(async () => {
    await t.db.query('DELETE FROM rate_limit_windows');
  });

  async function projectWithClient() {
    const admin = await signedInAccount(app, t.db);
    const projectId = await createProject(admin);
    const keys = await createKeys(admin, await createApp(admin, projectId));
    return { projectId, clientId: keys.clientId };
  }

  /** A plain authorization request of the project's client (PKCE), as its path and query. */
  const authorization = (project: { projectId: string; clientId: string }) =>
    `/p/${project.projectId}/auth?${new URLSearchParams({
      client_id: project.clientId,
      response_type: 'code',
      scope: 'openid',
      redirect_uri: REDIRECT,
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    })}`;

  const signIn = (project: { projectId: string; clientId: string }, address: string) =>
    app.app.inject({ method: 'GET', url: authorization(project), remoteAddress: address });

  const admitted = (res: { statusCode: number; headers: Record<string, unknown> }) =>
    res.statusCode === 303 && new URL(String(res.headers.location), 'http://x').pathname.includes('/interaction/');

  /** Answered as the per-issuer bound answers: back to the client with temporarily_unavailable. */
  function expectTryLater(res: { statusCode: number; headers: Record<string, unknown> }) {
    expect(res.statusCode).toBe(303);
    const back = new URL(String(res.headers.location));
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('error')).toBe('temporarily_unavailable');
  }

  const interactions = async (projectId: string) =>
    (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM oidc_payloads WHERE issuer = $1 AND kind = 'Interaction'`, [projectId])).rows[0]
      ?.n;

  /** The buckets of `name` for a sign-in from `address` (at any project: server-wide ones are no project's), every stripe. */
  const bucketsOf = (name: InteractionLimit, address: string) => [
    ...new Set(
      Array.from({ length: SERVER_WIDE_STRIPES }, (_, stripe) =>
        interactionLimitsOf(app.services.secretBox, 'any-project', address, { serverWide: true, stripe }).find((l) => l.name === name),
      ).map((limit) => limit?.bucket as string),
    ),
  ];

  const hitsIn = async (buckets: string[]) =>
    (
      await t.db.query<{ hits: number }>(
        'SELECT coalesce(sum(hits), 0)::int AS hits FROM rate_limit_windows WHERE issuer = $1 AND bucket = ANY($2)',
        [INTERACTION_WINDOWS_KEY, buckets],
      )
    ).rows[0]?.hits;

  /** Sets the windows of `buckets` at `hits` for the next ten minutes, as sign-ins before would have. */
  async function fill(buckets: string[], hits: number) {
    await t.db.query(
      `INSERT INTO rate_limit_windows (issuer, bucket, window_started_at, window_ends_at, hits)
       SELECT $1, bucket, now(), now() + interval '10 minutes', $3 FROM unnest($2::text[]) AS bucket`,
      [INTERACTION_WINDOWS_KEY, buckets, hits],
    );
  }

  const refusals = async (limit: string) => {
    const res = await app.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const line = res.body.split('\n').find((l) => l.startsWith(`latchkey_rate_limit_refusals_total{limit="${limit}"} `));
    return Number(line?.split(' ')[1] ?? 0);
  };

  it("counts every project's sign-ins in one window, and once it is used up refuses a sign-in at any project as the per-issuer bound does, storing nothing", async () => {
    const [a, b, c] = [await projectWithClient(), await projectWithClient(), await projectWithClient()];
    const server = bucketsOf('server', '192.0.2.1');
    expect(server).toHaveLength(SERVER_WIDE_STRIPES);
    expect(admitted(await signIn(a, '192.0.2.1'))).toBe(true);
    expect(admitted(await signIn(b, '192.0.2.2'))).toBe(true);
    expect(admitted(await signIn(b, '192.0.2.3'))).toBe(true);
    expect(await hitsIn(server)).toBe(3);

    // As if the projects' issuers had together started INTERACTION_LIMITS.serverWide in this window:
    const perStripe = INTERACTION_LIMITS.serverWide / SERVER_WIDE_STRIPES;
    await t.db.query('DELETE FROM rate_limit_windows WHERE bucket = ANY($1)', [server]);
    await fill(server, perStripe);
    const before = await refusals('server');
    // A project that has started nothing yet, from an address that has started nothing yet.
    expectTryLater(await signIn(c, '192.0.2.4'));
    expect(await interactions(c.projectId)).toBe(0);
    expect(await refusals('server')).toBe(before + 1);
    expect(await hitsIn(server)).toBe(INTERACTION_LIMITS.serverWide);

    // One short in each row: admitted again, and counted.
    await t.db.query('UPDATE rate_limit_windows SET hits = hits - 1 WHERE bucket = ANY($1)', [server]);
    expect(admitted(await signIn(c, '192.0.2.4'))).toBe(true);
    expect(await hitsIn(server)).toBe(INTERACTION_LIMITS.serverWide - SERVER_WIDE_STRIPES + 1);
    expect(await interactions(c.projectId)).toBe(1);
  });

  it('counts one address across every project: once it has started perAddressServerWide, it is refused at a project it never used; another address goes on', async () => {
    const [a, b, c] = [await projectWithClient(), await projectWithClient(), await projectWithClient()];
    const [address] = bucketsOf('server-address', '198.51.100.30');
    expect(admitted(await signIn(a, '198.51.100.30'))).toBe(true);
    expect(admitted(await signIn(b, '198.51.100.30'))).toBe(true);
    expect(await hitsIn([address as string])).toBe(2);

    await t.db.query('UPDATE rate_limit_windows SET hits = $2 WHERE issuer = $1 AND bucket = $3', [
      INTERACTION_WINDOWS_KEY,
      INTERACTION_LIMITS.perAddressServerWide,
      address,
    ]);
    const before = await refusals('server-address');
    expectTryLater(await signIn(c, '198.51.100.30'));
    expect(await interactions(c.projectId)).toBe(0);
    expect(await refusals('server-address')).toBe(before + 1);
    expect(admitted(await signIn(c, '198.51.100.31'))).toBe(true);
  });

  it("stores at most 12 kB for the largest authorization request the 4 KB bound admits (the README's worst case)", async () => {
    const project = await projectWithClient();
    // Each backslash of the query is escaped in the interaction's JSON, then sealed (base64): the most a character can cost.
    const prefix = `${authorization(project)}&state=`;
    const query = prefix.slice(prefix.indexOf('?') + 1);
    const res = await app.app.inject({
      method: 'GET',
      url: `${prefix}${'\\'.repeat(MAX_AUTHORIZATION_QUERY - query.length)}`,
      remoteAddress: '192.0.2.60',
    });
    expect(admitted(res)).toBe(true);
    const { rows } = await t.db.query<{ size: number }>(
      `SELECT pg_column_size(p.*)::int AS size FROM oidc_payloads p WHERE issuer = $1 AND kind = 'Interaction'`,
      [project.projectId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.size).toBeGreaterThan(10_000);
    expect(rows[0]?.size).toBeLessThan(12_000);
  });

  it("leaves the console's own sign-in outside the server-wide windows: its staff sign in while projects' issuers are flooded", async () => {
    await fill(bucketsOf('server', '192.0.2.50'), INTERACTION_LIMITS.serverWide / SERVER_WIDE_STRIPES);
    await fill(bucketsOf('server-address', '192.0.2.50'), INTERACTION_LIMITS.perAddressServerWide);
    const project = await projectWithClient();
    expectTryLater(await signIn(project, '192.0.2.50'));

    const start = await app.app.inject({ method: 'GET', url: `/api/authurl?redirectURL=${encodeURIComponent('http://127.0.0.1:8080/login')}` });
    expect(start.statusCode, start.body).toBe(200);
    const authUrl = new URL(start.json<{ authUrl: string }>().authUrl);
    const res = await app.app.inject({ method: 'GET', url: `${authUrl.pathname}${authUrl.search}`, remoteAddress: '192.0.2.50' });
    expect(res.statusCode, res.body).toBe(303);
    expect(String(res.headers.location)).toMatch(/^\/idp\/interaction\//);
  });
});
