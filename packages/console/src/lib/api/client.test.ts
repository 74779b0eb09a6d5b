// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api.ts';
import { ApiError } from './api-error.ts';
import { request, resolveApiLink } from './client.ts';
import { api } from './contract.ts';
import { onSessionExpired } from './session-events.ts';

function setCookie(value: string) {
  document.cookie = value;
}

afterEach(() => {
  document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT';
  vi.unstubAllGlobals();
});

describe('request', () => {
  it('calls the contract path under /api, with parameters encoded, cookies included', async () => {
    const server = fakeApi({ 'GET /projects/a%2Fb': { body: { id: 'a/b' } } });
    const result = await request(api.getProject, { params: { project: 'a/b' } });
    expect(result).toEqual({ id: 'a/b' });
    expect(server.calls).toHaveLength(1);
    const init = vi.mocked(fetch).mock.calls[0]?.[1];
    expect(init?.credentials).toBe('include');
  });

  it('sends the query of the call, leaving out absent values', async () => {
    const server = fakeApi({ 'GET /authurl': { body: { authUrl: 'https://idp/auth' } } });
    await request(api.getAuthUrl, { query: { redirectURL: 'http://localhost:3000/login', state_next: undefined } });
    const call = server.calls[0];
    expect(call?.query.get('redirectURL')).toBe('http://localhost:3000/login');
    expect(call?.query.has('state_next')).toBe(false);
  });

  it('sends the XSRF cookie back as the X-XSRF-TOKEN header on unsafe methods only', async () => {
    setCookie('XSRF-TOKEN=token%20value');
    const server = fakeApi({
      'POST /projects': { status: 201, body: { id: 'p9' } },
      'PUT /projects/p9/meta': { body: {} },
      'GET /account': { body: { id: 'a', email: 'a@b.c', permissions: [] } },
    });
    await request(api.createProject, { body: { name: 'Acme', pinLength: 4, email: 'a@b.c' } });
    await request(api.updateProjectMeta, { params: { project: 'p9' }, body: { enabled: false } });
    await request(api.getAccount);
    const [post, put, get] = server.calls;
    expect(post?.headers.get('X-XSRF-TOKEN')).toBe('token value');
    expect(post?.headers.get('Content-Type')).toBe('application/json');
    expect(post?.body).toEqual({ name: 'Acme', pinLength: 4, email: 'a@b.c' });
    expect(put?.headers.get('X-XSRF-TOKEN')).toBe('token value');
    expect(get?.headers.has('X-XSRF-TOKEN')).toBe(false);
  });

  it('turns an error answer into an ApiError with status, code, message and field issues', async () => {
    fakeApi({
      'POST /projects': {
        status: 400,
        body: {
          error: 'validation_failed',
          message: 'Invalid input',
          issues: [{ field: 'name', code: 'validation.required', message: 'Required' }],
        },
      },
    });
    const failure = request(api.createProject, { body: { name: '', email: 'a@b.c' } });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Invalid input',
      issues: [{ field: 'name', code: 'validation.required', message: 'Required' }],
    });
  });

  it('keeps a code this console does not know with the server’s message, the text it then shows', async () => {
    fakeApi({ 'GET /config': { status: 429, body: { error: 'rate_limited', message: 'Slow down' } } });
    await expect(request(api.getConsoleConfig)).rejects.toMatchObject({ status: 429, code: 'rate_limited', message: 'Slow down' });
  });

  it('gives an unknown code without a message the code unexpected_response', async () => {
    fakeApi({ 'GET /config': { status: 400, body: { error: 'invalid_request' } } });
    await expect(request(api.getConsoleConfig)).rejects.toMatchObject({ status: 400, code: 'unexpected_response' });
  });

  it('gives an answer that is not an API error body the code unexpected_response', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' })),
    );
    await expect(request(api.getConsoleConfig)).rejects.toMatchObject({ status: 502, code: 'unexpected_response' });
  });

  it('gives a call that got no answer the code network_error', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(request(api.getConsoleConfig)).rejects.toMatchObject({ status: 0, code: 'network_error' });
  });

  it('emits the session-expired event on a 401', async () => {
    fakeApi({ 'GET /projects/p1': { status: 401, body: { error: 'unauthorized', message: 'Sign in' } } });
    const listener = vi.fn();
    const stop = onSessionExpired(listener);
    await expect(request(api.getProject, { params: { project: 'p1' } })).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
    stop();
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('does not emit it for calls where signed out is the expected answer (session entry, sign-in)', async () => {
    fakeApi({ 'GET /account': { status: 401, body: { error: 'unauthorized', message: 'Sign in' } } });
    const listener = vi.fn();
    const stop = onSessionExpired(listener);
    await expect(request(api.getAccount, { expectSignedOut: true })).rejects.toMatchObject({ status: 401 });
    stop();
    expect(listener).not.toHaveBeenCalled();
  });

  it('does not emit it for other errors', async () => {
    fakeApi({ 'GET /projects/p1': { status: 403, body: { error: 'forbidden', message: 'No' } } });
    const listener = vi.fn();
    const stop = onSessionExpired(listener);
    await expect(request(api.getProject, { params: { project: 'p1' } })).rejects.toMatchObject({ code: 'forbidden' });
    stop();
    expect(listener).not.toHaveBeenCalled();
  });

  it('follows a link the API answered (at) as RFC 3986 resolves it against the API base', async () => {
    const server = fakeApi({ 'PUT /apps/a1/keys': { body: { clientId: 'c', redirectURI: [] } } });
    await request(api.updateAppKeys, { at: 'apps/a1/keys', body: { redirectURI: [] } });
    await request(api.updateAppKeys, { at: `${window.location.origin}/api/apps/a1/keys`, body: { redirectURI: [] } });
    expect(server.callsTo('PUT /apps/a1/keys')).toHaveLength(2);
    const urls = vi.mocked(fetch).mock.calls.map(([input]) => String(input));
    expect(urls).toEqual(['/api/apps/a1/keys', '/api/apps/a1/keys']);
  });

  it.each([
    ['/apps/a1/keys', 'a leading slash resolves against the host, outside the API'],
    ['apps/a1/keys/generate', 'another contract entry'],
    ['apps/a1/../a2/keys/generate', 'another contract entry once resolved'],
    ['apps/a1/keys?x=1', 'a query'],
    ['https://elsewhere.example/api/apps/a1/keys', 'another origin'],
    ['../apps/a1/keys', 'outside the API base'],
  ])('refuses %s (%s) without calling', async (link) => {
    const server = fakeApi({});
    await expect(request(api.updateAppKeys, { at: link, body: { redirectURI: [] } })).rejects.toMatchObject({
      code: 'unexpected_response',
    });
    expect(server.calls).toHaveLength(0);
  });

  it('resolves links under the API base only', () => {
    expect(resolveApiLink('apps/a%2Fb/keys')).toBe('/apps/a%2Fb/keys');
    expect(resolveApiLink('/api/apps/a1/keys')).toBe('/apps/a1/keys');
    expect(resolveApiLink('/apps/a1/keys')).toBeNull();
  });
});
