import { beforeAll, expect, it } from 'vitest';
import { api, type Issuer, type SigningKeys } from '@latchkey/domain';
import { signedInAccount, useTestApp, type SignedIn } from '../support/app.ts';
import { describeEachDatabase } from '../support/databases.ts';
import { apiPath, changeIssuer, createProject } from '../support/fixtures.ts';
import { discoveryOf, fetchJwks, httpsDiscovery, staticClient, validateJwks, validateServerConfiguration, type StaticClient } from './support.ts';

/** RFC 6749 §3.3 scope-token: %x21 / %x23-5B / %x5D-7E. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
/** A BCP 47 language tag in canonical case (language lower, region upper, script title). */
const CANONICAL_LOCALE = /^[a-z]{2,3}(-[A-Z][a-z]{3})?(-([A-Z]{2}|\d{3}))?$/;

/**
 * The checks of oidcc-discovery-endpoint-verification on a discovery document fetched from
 * `discoveryUrl` (static client variant): answers the document.
 */
async function verifyDiscovery(discoveryUrl: string, response: { status: number; contentType: string; body: string }) {
  // EnsureDiscoveryEndpointResponseStatusCodeIs200, CheckDiscoveryEndpointReturnedJsonContentType.
  expect(response.status).toBe(200);
  expect(response.contentType).toMatch(/^application\/json/);
  const doc = JSON.parse(response.body) as Record<string, unknown>;
  // OIDCCCheckDiscEndpointResponseTypesSupported: one of the OpenID Connect response types at least.
  expect(doc.response_types_supported).toContain('code');
  // CheckDiscEndpointDiscoveryUrl, CheckDiscEndpointIssuer, CheckDiscEndpointIssuerIsValidUrl.
  expect(`${String(doc.issuer)}/.well-known/openid-configuration`).toBe(discoveryUrl);
  const issuer = new URL(String(doc.issuer));
  expect(issuer.search).toBe('');
  expect(issuer.hash).toBe('');
  // CheckDiscEndpointSubjectTypesSupported.
  expect((doc.subject_types_supported as string[]).length).toBeGreaterThan(0);
  for (const type of doc.subject_types_supported as string[]) expect(['public', 'pairwise']).toContain(type);
  // OIDCCCheckDiscEndpointIdTokenSigningAlgValuesSupported: RS256 MUST be included (OpenID Connect Discovery §3).
  expect(doc.id_token_signing_alg_values_supported).toContain('RS256');
  if (doc.userinfo_signing_alg_values_supported !== undefined) expect(doc.userinfo_signing_alg_values_supported).toEqual(expect.any(Array));
  // CheckDiscEndpointAuthorizationEndpoint, …TokenEndpoint, …UserinfoEndpoint (recommended: present here), CheckJwksUri.
  for (const key of ['authorization_endpoint', 'token_endpoint', 'userinfo_endpoint', 'jwks_uri']) {
    expect(() => new URL(String(doc[key])), key).not.toThrow();
  }
  // No dynamic registration: CheckDiscEndpointRegistrationEndpoint is skipped.
  expect(doc.registration_endpoint).toBeUndefined();
  // CheckDiscEndpointRequestParameterSupported / …RequestUriParameterSupported / …ClaimsParameterSupported (informative):
  // none of the three is supported, and discovery says so (absent means false).
  expect(doc.request_parameter_supported ?? false).toBe(false);
  expect(doc.request_uri_parameter_supported ?? false).toBe(false);
  expect(doc.claims_parameter_supported ?? false).toBe(false);
  expect(doc.request_object_signing_alg_values_supported).toBeUndefined();
  // OIDCCCheckDiscEndpointClaimsSupported (recommended): an array.
  expect(doc.claims_supported).toEqual(expect.arrayContaining(['sub']));
  // OIDCCCheckDiscEndpointGrantTypesSupported: a non-empty array if present.
  expect((doc.grant_types_supported as string[]).length).toBeGreaterThan(0);
  // CheckDiscEndpointScopesSupportedContainsOpenId, CheckDiscEndpointScopesSupportedSyntax.
  expect(doc.scopes_supported).toContain('openid');
  for (const scope of doc.scopes_supported as string[]) expect(scope).toMatch(SCOPE_TOKEN);
  // CheckDiscEndpointLocalesSyntax, CheckDiscEndpointLocalesCanonicalCasing.
  for (const key of ['ui_locales_supported', 'claims_locales_supported']) {
    for (const locale of (doc[key] as string[] | undefined) ?? []) expect(locale, key).toMatch(CANONICAL_LOCALE);
  }
  // EnsureServerConfigurationCodeChallengeMethodsSupportedIsAnArray.
  expect(doc.code_challenge_methods_supported).toEqual(expect.any(Array));
  return doc;
}

/** CheckDiscEndpointAllEndpointsAreHttps: every `…_endpoint` (and the issuer, CheckDiscEndpointIssuerIsValidUrl) is https. */
function expectAllHttps(doc: Record<string, unknown>): void {
  expect(new URL(String(doc.issuer)).protocol).toBe('https:');
  const endpoints = Object.keys(doc).filter((key) => key.endsWith('_endpoint'));
  expect(endpoints.length).toBeGreaterThanOrEqual(4);
  for (const key of endpoints) expect(new URL(String(doc[key])).protocol, key).toBe('https:');
  expect(new URL(String(doc.jwks_uri)).protocol).toBe('https:');
}

// The OpenID Foundation's Config OP certification plan (oidcc-config-certification-test-plan:
// oidcc-discovery-endpoint-verification), with the OP key rotation module (oidcc-server-rotate-keys,
// run in the Dynamic OP plan: it needs discovery only). docs/conformance.md lists them.
describeEachDatabase('Config OP (oidcc-config-certification-test-plan)', (d) => {
  const t = useTestApp(d, { listen: true, env: { PROJECTS_PER_ACCOUNT: '100' } });
  let admin: SignedIn;
  let c: StaticClient;
  beforeAll(async () => {
    admin = await signedInAccount(t, d.db);
    c = await staticClient(t, admin);
  });

  const setIssuer = (projectId: string, change: Partial<Issuer>) => changeIssuer(admin, projectId, change);

  const fetched = async (issuer: string) => {
    const res = await discoveryOf(issuer);
    return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: await res.text() };
  };

  it('oidcc-discovery-endpoint-verification', async () => {
    const doc = await verifyDiscovery(`${c.issuer}/.well-known/openid-configuration`, await fetched(c.issuer));
    // FetchServerKeys, ValidateServerJWKs, EnsureServerJwksDoesNotContainPrivateOrSymmetricKeys.
    validateJwks(await fetchJwks({ metadata: doc }));
    // Every endpoint is the issuer's own (so https wherever PUBLIC_URL is)…
    for (const key of Object.keys(doc).filter((k) => k.endsWith('_endpoint'))) expect(String(doc[key]), key).toMatch(new RegExp(`^${c.issuer}/`));
    // …and with an https PUBLIC_URL, as deployed, every one is https (the test app's loopback address is http).
    const deployed = await httpsDiscovery(d.db, c.projectId);
    expectAllHttps(await verifyDiscovery(`${deployed.issuer}/.well-known/openid-configuration`, deployed.response));
  });

  it('oidcc-server-rotate-keys', async () => {
    // The keys before (configure()), then the OP rotates (the console's or the API's rotation), then after (start()).
    const original = await validateServerConfiguration(c);
    const rotated = await admin.api.post<SigningKeys>(apiPath(api.rotateSigningKey, { project: c.projectId }), {});
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    const after = validateJwks(await fetchJwks(c));
    const before = new Set(original.map((k) => k.kid));
    // VerifyNewJwksHasNewSigningKey (OIDCC-10.1.1): a signing key that was not there…
    const added = after.filter((k) => !before.has(k.kid) && (k.use === undefined || k.use === 'sig'));
    expect(added).toHaveLength(1);
    // …and VerifyNewJwksStillHasOldSigningKey: the previous one still published for tokens it signed.
    expect(after.map((k) => k.kid)).toEqual(expect.arrayContaining([...before]));
  });

  // Found as a gap (docs/conformance.md) and mended: a project that chooses another ID token
  // algorithm (ES256, PS256, EdDSA) still lists RS256 in id_token_signing_alg_values_supported and
  // keeps its key published, as OpenID Connect Discovery §3 and Core §15.1 require.
  it('oidcc-discovery-endpoint-verification [id_token_signing_alg ES256]', async () => {
    const projectId = await createProject(admin);
    const issuer = `${t.baseUrl}/p/${projectId}`;
    await setIssuer(projectId, { id_token_signing_alg: 'ES256' });
    const doc = JSON.parse((await fetched(issuer)).body) as Record<string, unknown>;
    expect(doc.id_token_signing_alg_values_supported).toContain('RS256');
  });
});
