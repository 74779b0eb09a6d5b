import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../test/fake-api.ts';
import { api } from './api/index.ts';
import { readKey } from './api/query-key.ts';
import { createQueryClient } from './query-client.ts';
import { useApiMutation, useApiQuery, useTaggedQuery, useTaggedSave } from './use-api.ts';

const WEBHOOK = { id: 'w1', url: 'https://hooks.example/in', description: '', eventTypes: [], enabled: true };

function setUp() {
  const queryClient = createQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  return { queryClient, wrapper };
}

describe('useApiQuery, useTaggedQuery', () => {
  it('read the contract entry’s path and cache the answer under the entry’s key, with its ETag when tagged', async () => {
    const server = fakeApi({
      'GET /projects/p1/webhooks/w1': { body: WEBHOOK, headers: { ETag: '"v1"' } },
      'GET /projects/p1/webhooks/w1/deliveries': { body: { list: [] } },
    });
    const { queryClient, wrapper } = setUp();
    const { result } = renderHook(
      () => ({
        webhook: useTaggedQuery(api.getWebhook, { params: { project: 'p1', webhook: 'w1' } }),
        deliveries: useApiQuery(api.listWebhookDeliveries, { params: { project: 'p1', webhook: 'w1' }, query: { limit: 50 } }),
      }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.deliveries.data).toEqual({ list: [] }));
    await waitFor(() => expect(result.current.webhook.data).toEqual({ data: WEBHOOK, etag: '"v1"' }));
    expect(server.callsTo('GET /projects/p1/webhooks/w1/deliveries')[0]?.query.get('limit')).toBe('50');
    const key = readKey(api.getWebhook, { params: { project: 'p1', webhook: 'w1' } }, true);
    expect(queryClient.getQueryData(key)).toEqual({ data: WEBHOOK, etag: '"v1"' });
  });
});

describe('useApiMutation', () => {
  it('reads again what it invalidates — every read under the named entry’s key, with the call’s parameters — and nothing else', async () => {
    const server = fakeApi({
      'POST /projects/p1/webhooks': { status: 201, body: { ...WEBHOOK, secret: 's' } },
      'GET /projects/p1/webhooks': { body: { list: [] } },
      'GET /projects/p2/webhooks': { body: { list: [] } },
    });
    const { wrapper } = setUp();
    const { result } = renderHook(
      () => ({
        mine: useApiQuery(api.listWebhooks, { params: { project: 'p1' } }),
        other: useApiQuery(api.listWebhooks, { params: { project: 'p2' } }),
        create: useApiMutation(api.createWebhook, { invalidates: [api.listWebhooks] }),
      }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.mine.isSuccess && result.current.other.isSuccess).toBe(true));
    await act(() =>
      result.current.create.mutateAsync({ params: { project: 'p1' }, body: { url: WEBHOOK.url, description: '', eventTypes: [], enabled: true } }),
    );
    await waitFor(() => expect(server.callsTo('GET /projects/p1/webhooks')).toHaveLength(2));
    expect(server.callsTo('GET /projects/p2/webhooks')).toHaveLength(1);
    expect(server.callsTo('POST /projects/p1/webhooks')[0]?.body).toMatchObject({ url: WEBHOOK.url });
  });

  it('invalidates after a failure too (the change may have been made meanwhile)', async () => {
    const server = fakeApi({
      'POST /projects/p1/users/u1/block': { status: 409, body: { error: 'conflict', message: 'Already blocked' } },
      'GET /projects/p1/users/u1': { body: { id: 'u1' } },
    });
    const { wrapper } = setUp();
    const { result } = renderHook(
      () => ({
        user: useApiQuery(api.getEndUser, { params: { project: 'p1', user: 'u1' } }),
        block: useApiMutation(api.blockEndUser, { invalidates: [api.listEndUsers] }),
      }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.user.isSuccess).toBe(true));
    let failure: unknown = null;
    await act(async () => {
      failure = await result.current.block.mutateAsync({ params: { project: 'p1', user: 'u1' } }).catch((error: unknown) => error);
    });
    expect(failure).toMatchObject({ code: 'conflict' });
    await waitFor(() => expect(server.callsTo('GET /projects/p1/users/u1')).toHaveLength(2));
  });

  it('a DELETE drops the cached reads of what it deleted, and reads the list again', async () => {
    const server = fakeApi({
      'GET /projects/p1/webhooks/w1': { body: WEBHOOK },
      'DELETE /projects/p1/webhooks/w1': { status: 204 },
      'GET /projects/p1/webhooks': { body: { list: [] } },
    });
    const { queryClient, wrapper } = setUp();
    const webhookKey = readKey(api.getWebhook, { params: { project: 'p1', webhook: 'w1' } }, true);
    await queryClient.prefetchQuery({ queryKey: webhookKey, queryFn: () => ({ data: WEBHOOK, etag: null }) });
    const { result } = renderHook(
      () => ({
        list: useApiQuery(api.listWebhooks, { params: { project: 'p1' } }),
        remove: useApiMutation(api.deleteWebhook, { invalidates: [api.listWebhooks] }),
      }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.list.isSuccess).toBe(true));
    await act(() => result.current.remove.mutateAsync({ params: { project: 'p1', webhook: 'w1' } }));
    expect(queryClient.getQueryData(webhookKey)).toBeUndefined();
    await waitFor(() => expect(server.callsTo('GET /projects/p1/webhooks')).toHaveLength(2));
  });

  it('is typed by the contract entry', () => {
    const { wrapper } = setUp();
    const { result } = renderHook(() => useApiMutation(api.createWebhook), { wrapper });
    const typeOnly = (run: () => void) => run;
    typeOnly(() => {
      // @ts-expect-error -- the body is required by the contract entry
      result.current.mutate({ params: { project: 'p1' } });
      // @ts-expect-error -- so are its path parameters
      result.current.mutate({ body: { url: WEBHOOK.url, description: '', eventTypes: [], enabled: true } });
    });
  });
});

describe('useTaggedSave', () => {
  const params = { project: 'p1', webhook: 'w1' };
  const BODY = { url: WEBHOOK.url, description: 'Orders', eventTypes: [], enabled: true };

  it('writes with the read’s ETag, puts the answer in the tagged read and reads again what it invalidates', async () => {
    const server = fakeApi({
      'GET /projects/p1/webhooks/w1': { body: WEBHOOK, headers: { ETag: '"v1"' } },
      'PUT /projects/p1/webhooks/w1': { body: { ...WEBHOOK, description: 'Orders' }, headers: { ETag: '"v2"' } },
      'GET /projects/p1/webhooks': { body: { list: [] } },
    });
    const { wrapper } = setUp();
    const { result } = renderHook(
      () => ({
        webhook: useTaggedQuery(api.getWebhook, { params }),
        list: useApiQuery(api.listWebhooks, { params: { project: 'p1' } }),
        save: useTaggedSave(api.getWebhook, api.updateWebhook, params, [{ queryKey: readKey(api.listWebhooks, { params }), exact: true }]),
      }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.webhook.data?.etag).toBe('"v1"'));
    await waitFor(() => expect(result.current.list.isSuccess).toBe(true));
    const current = result.current.webhook.data;
    if (!current) throw new Error('no webhook read');
    await act(() => result.current.save.mutateAsync({ current, body: BODY }));
    expect(server.callsTo('PUT /projects/p1/webhooks/w1')[0]?.headers.get('if-match')).toBe('"v1"');
    await waitFor(() => expect(result.current.webhook.data).toEqual({ data: { ...WEBHOOK, description: 'Orders' }, etag: '"v2"' }));
    await waitFor(() => expect(server.callsTo('GET /projects/p1/webhooks')).toHaveLength(2));
    // The answer replaced the tagged read: it is not read again.
    expect(server.callsTo('GET /projects/p1/webhooks/w1')).toHaveLength(1);
  });

  it('reads the tagged read again after a stale version (412), and only then', async () => {
    const server = fakeApi({
      'GET /projects/p1/webhooks/w1': { body: WEBHOOK, headers: { ETag: '"v1"' } },
      'PUT /projects/p1/webhooks/w1': { status: 412, body: { error: 'conflict', message: 'Changed meanwhile' } },
    });
    const { wrapper } = setUp();
    const { result } = renderHook(
      () => ({ webhook: useTaggedQuery(api.getWebhook, { params }), save: useTaggedSave(api.getWebhook, api.updateWebhook, params) }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.webhook.data?.etag).toBe('"v1"'));
    const current = result.current.webhook.data;
    if (!current) throw new Error('no webhook read');
    await act(() => result.current.save.mutateAsync({ current, body: BODY }).catch(() => undefined));
    await waitFor(() => expect(server.callsTo('GET /projects/p1/webhooks/w1')).toHaveLength(2));
  });
});
