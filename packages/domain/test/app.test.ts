import { describe, expect, it } from 'vitest';
import {
  applicationCreateFormSchema,
  applicationCreateSchema,
  applicationListQuerySchema,
  applicationUpdateSchema,
  canGenerateKeys,
  canSaveApplication,
  issuerClientRedirects,
  keysBodySchema,
  redirectUriMatches,
  toFieldIssues,
  redirectUriProblems,
  redirectUrisOf,
  returnsToUnverifiedApp,
} from '../src/index.ts';

function issues(result: { success: boolean; error?: unknown }) {
  return result.success ? [] : toFieldIssues(result.error as Parameters<typeof toFieldIssues>[0]);
}

describe('new app (spec §5)', () => {
  it('accepts a name and redirect URIs, trimming the name', () => {
    const parsed = applicationCreateFormSchema.parse({ name: '  Shop ', redirectURI: ['https://shop.example/cb'] });
    expect(parsed).toEqual({ name: 'Shop', redirectURI: ['https://shop.example/cb'] });
  });
  it.each([
    ['no name', { name: '', redirectURI: ['https://a.example/cb'] }, 'name', 'Required'],
    ['long name', { name: 'n'.repeat(251), redirectURI: ['https://a.example/cb'] }, 'name', 'Maximum input length exceeded'],
    ['no redirect URL', { name: 'a', redirectURI: [] }, 'redirectURI', 'Required'],
    ['empty redirect URL', { name: 'a', redirectURI: [''] }, 'redirectURI.0', 'Required'],
    ['redirect URL not a URI', { name: 'a', redirectURI: ['https://a.example/cb', 'nope'] }, 'redirectURI.1', 'Invalid URI'],
  ])('rejects %s', (_n, input, field, message) => {
    expect(issues(applicationCreateFormSchema.safeParse(input))).toContainEqual(expect.objectContaining({ field, message }));
  });
  it('the create call defaults platformCode to oidc, the type to a web app and url to empty', () => {
    expect(applicationCreateSchema.parse({ name: 'a', projectId: 'p1' })).toEqual({
      name: 'a',
      projectId: 'p1',
      platformCode: 'oidc',
      applicationType: 'web',
      url: '',
    });
  });
  it('the keys body needs at least one URI', () => {
    expect(issues(keysBodySchema.safeParse({ redirectURI: [] }))).toContainEqual(
      expect.objectContaining({ field: 'redirectURI', message: 'Required' }),
    );
  });
});

describe('app edit (spec §5)', () => {
  it('logoUrl must be a URL', () => {
    expect(issues(applicationUpdateSchema.safeParse({ name: 'a', logoUrl: 'x', enabled: true }))).toContainEqual(
      expect.objectContaining({ field: 'logoUrl', message: 'Invalid URL' }),
    );
  });
});

describe('app list query (spec §7, §9)', () => {
  it('defaults to name ascending, first page of 10', () => {
    expect(applicationListQuerySchema.parse({})).toEqual({ sort: 'name', direction: 'asc', offset: 0, limit: 10 });
  });
  it('reads query-string values', () => {
    expect(applicationListQuerySchema.parse({ enabled: 'false', offset: '20', limit: '20', sort: 'enabled', direction: 'desc' })).toMatchObject({
      enabled: false,
      offset: 20,
      limit: 20,
      sort: 'enabled',
      direction: 'desc',
    });
  });
  it.each([
    [{ limit: '0' }, 'limit'],
    [{ limit: '101' }, 'limit'],
    [{ offset: '-1' }, 'offset'],
    [{ sort: 'secret' }, 'sort'],
    [{ enabled: 'yes' }, 'enabled'],
    [{ platformCode: 'saml' }, 'platformCode'],
  ])('rejects %o', (query, field) => {
    expect(issues(applicationListQuerySchema.safeParse(query)).map((i) => i.field)).toContain(field);
  });
});

describe('app rules (spec §4)', () => {
  it('keys are generated only while the app and project are enabled', () => {
    expect(canGenerateKeys({ enabled: true }, { enabled: true })).toBe(true);
    expect(canGenerateKeys({ enabled: false }, { enabled: true })).toBe(false);
    expect(canGenerateKeys({ enabled: true }, { enabled: false })).toBe(false);
  });
  it('save is disabled while the app is disabled', () => {
    expect(canSaveApplication({ enabled: false }, { enabled: true })).toBe(false);
  });
  it.each([
    ['https://a.example/cb', true],
    ['https://a.example/cb/', false],
    ['https://a.example/cb?x=1', false],
    ['https://A.example/cb', false],
    ['https://a.example/c', false],
    ['https://a.example/cb/extra', false],
  ])('redirect %s matches exactly: %s', (asked, expected) => {
    expect(redirectUriMatches(['https://a.example/cb'], asked)).toBe(expected);
  });
});

// RFC 8252 as oidc-provider 9 applies it (docs/decisions/0012 "Native apps").
describe('redirect URIs the issuer can return to', () => {
  const NATIVE_WEB = 'validation.redirect_uri_native_web';
  const APP_SCHEME = 'validation.redirect_uri_app_scheme';
  it.each([
    ['a web app', ['https://shop.example/cb', 'http://shop.example/cb', 'https://localhost:8443/cb'], [null, null, null], 'web'],
    ['a web app with a loopback address for development', ['https://shop.example/cb', 'http://localhost:3000/cb'], [null, null], 'web'],
    ['a private-use scheme', ['com.example.app:/oauth2redirect'], [null], 'native'],
    ['a scheme with an authority', ['myapp://callback'], [null], 'native'],
    ['loopback addresses only', ['http://127.0.0.1/cb', 'http://[::1]:8080/cb', 'http://localhost/cb'], [null, null, null], 'native'],
    [
      'a native app with a claimed https URL and loopback',
      ['com.example.app:/cb', 'https://app.example/cb', 'http://127.0.0.1/cb'],
      [null, null, null],
      'native',
    ],
    ['a native app with http to a domain', ['com.example.app:/cb', 'http://app.example/cb'], [null, NATIVE_WEB], 'native'],
    ['a native app with https to localhost', ['https://localhost/cb', 'com.example.app:/cb'], [NATIVE_WEB, null], 'native'],
    [
      'a fragment',
      ['https://shop.example/cb#x', 'https://shop.example/cb#'],
      ['validation.redirect_uri_fragment', 'validation.redirect_uri_fragment'],
      'web',
    ],
    ['about:', ['about:blank', 'https://shop.example/cb'], ['validation.invalid_uri', null], 'web'],
    ['javascript: (no URI for any field)', ['javascript:alert(1)'], ['validation.invalid_uri'], 'web'],
  ])('%s', (_name, uris, problems, applicationType) => {
    const parsed = keysBodySchema.safeParse({ redirectURI: uris });
    expect(issues(parsed).map((i) => [i.field, i.code])).toEqual(
      problems.flatMap((problem, index) => (problem ? [[`redirectURI.${index}`, problem]] : [])),
    );
    // The issuer leaves out what it cannot return to (a list stored before these rules), and serves the rest.
    const type = applicationType === 'native' ? 'native' : 'web';
    const client = issuerClientRedirects(uris, type);
    expect(client.applicationType).toBe(applicationType);
    expect(client.redirectUris).toEqual(uris.filter((_uri, index) => problems[index] === null));
  });
  // Issue 22: the type is the application's, chosen at creation, not read from its redirect URIs.
  it.each([
    ['a web app returning to localhost only (local development) stays a web app', 'web', ['http://localhost:3000/callback'], [null], 'web'],
    ['a single-page app is a web client', 'spa', ['https://spa.example/', 'http://127.0.0.1:5173/'], [null, null], 'web'],
    ['a web app may not return to a private-use scheme', 'web', ['com.example.app:/cb', 'https://shop.example/cb'], [APP_SCHEME, null], 'web'],
    ['a single-page app neither', 'spa', ['myapp://callback'], [APP_SCHEME], 'web'],
    ['a native app with https to a domain only', 'native', ['https://app.example/cb'], [null], 'native'],
    ['a native app with http to a domain', 'native', ['http://app.example/cb', 'http://127.0.0.1/cb'], [NATIVE_WEB, null], 'native'],
  ] as const)('%s', (_name, type, uris, problems, applicationType) => {
    expect(redirectUriProblems(uris, type)).toEqual(problems);
    const parsed = redirectUrisOf(type).safeParse(uris);
    expect(parsed.success).toBe(problems.every((p) => p === null));
    expect(issuerClientRedirects(uris, type)).toEqual({ applicationType, redirectUris: uris.filter((_uri, index) => problems[index] === null) });
  });
  it('names the problem in words', () => {
    expect(issues(keysBodySchema.safeParse({ redirectURI: ['com.example.app:/cb', 'http://app.example/cb'] }))[0]?.message).toContain(
      'http on 127.0.0.1, [::1] or localhost',
    );
  });
});

describe('apps whose return the issuer cannot verify (RFC 8252 §8.6)', () => {
  it.each([
    ['com.example.app:/oauth2redirect', true],
    ['myapp://callback', true],
    ['http://127.0.0.1:8765/cb', true],
    ['http://[::1]/cb', true],
    ['http://localhost:3000/cb', true],
    ['https://localhost/cb', true],
    ['https://app.example.com/callback', false],
    ['http://app.example.com/callback', false],
    ['https://app.example.com/cb#frag', false],
    ['not a uri', false],
  ])('%s: %s', (uri, unverified) => {
    expect(returnsToUnverifiedApp(uri)).toBe(unverified);
  });
});
