import { describe, expect, it } from 'vitest';
import { accountQuery } from '../session.ts';
import { api } from './contract.ts';
import { paramsOf, readKey, resourceKey } from './query-key.ts';

describe('the cache key rule (issue 35)', () => {
  it('is the entry’s path, each parameter replaced by its value', () => {
    expect(resourceKey(api.getWebhook, { project: 'p1', webhook: 'w1' })).toEqual(['projects', 'p1', 'webhooks', 'w1']);
    expect(resourceKey(api.getAccount)).toEqual(['account']);
    // A value is kept as it is: the key is an array, nothing is joined or encoded.
    expect(resourceKey(api.getProject, { project: 'a/b' })).toEqual(['projects', 'a/b']);
  });

  it('ends at the first parameter not given, naming every resource of that kind', () => {
    expect(resourceKey(api.getEndUser, { project: 'p1' })).toEqual(['projects', 'p1', 'users']);
    expect(resourceKey(api.listAccountProjects)).toEqual(['accounts']);
    // A write's parameters name the reads it invalidates as far as they go: a device revoked from a
    // user's page names no user, so it reaches every user's reads of the project.
    expect(resourceKey(api.getEndUser, { project: 'p1', mpinId: 'd1' })).toEqual(['projects', 'p1', 'users']);
  });

  it('gives a read its query, then the ETag marker, after the resource, so the resource’s key is a prefix of all its reads', () => {
    const list = readKey(api.listWebhookDeliveries, { params: { project: 'p1', webhook: 'w1' }, query: { limit: 50 } });
    expect(list).toEqual(['projects', 'p1', 'webhooks', 'w1', 'deliveries', { limit: 50 }]);
    const tagged = readKey(api.getWebhook, { params: { project: 'p1', webhook: 'w1' } }, true);
    const plain = readKey(api.getWebhook, { params: { project: 'p1', webhook: 'w1' } });
    expect(tagged).not.toEqual(plain);
    const webhooks = resourceKey(api.listWebhooks, { project: 'p1' });
    for (const key of [list, tagged, plain]) expect(key.slice(0, webhooks.length)).toEqual(webhooks);
  });

  it('is the key of the session’s account too (written out there, for the first download)', () => {
    expect(accountQuery.queryKey).toEqual(readKey(api.getAccount, {}));
  });

  it('reads the parameters of a call’s options, none when it has none', () => {
    expect(paramsOf({ params: { project: 'p1' }, body: {} })).toEqual({ project: 'p1' });
    expect(paramsOf(undefined)).toEqual({});
    expect(paramsOf({ body: {} })).toEqual({});
  });
});
