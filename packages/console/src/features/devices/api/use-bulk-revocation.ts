import { REVOCATION_REASON, type DeviceFilter } from '@latchkey/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, request } from '../../../lib/api/index.ts';
import type { ListState } from '../../../lib/list-state/list-state.ts';
import { dateRangeQuery } from '../../../lib/list-state/use-ranged-list.ts';
import { resourceKey } from '../../../lib/api/query-key.ts';

/** Devices revoked per call: each call is one transaction on the server, a second or so of work. */
export const BULK_REVOCATION_BATCH = 200;

/** The bulk revocation of a filter, from the count to the last batch. */
export type BulkRevocationState =
  | { step: 'idle' }
  | { step: 'counting' }
  /** The count the person is asked to confirm, of `filter` fixed at the moment it was counted. */
  | { step: 'asking'; filter: DeviceFilter; count: number; until: string }
  | { step: 'revoking'; filter: DeviceFilter; count: number; until: string; revoked: number; stopping: boolean };

/** How a run ended: all `count` revoked (`finished`), or stopped by the person or by `error` after `revoked`. */
export interface BulkRevocationOutcome {
  count: number;
  revoked: number;
  finished: boolean;
  error: unknown;
}

/** The current second, as a range end the server takes (a time with its zone covers to the end of that second). */
function thisSecond(now: Date): string {
  return `${now.toISOString().slice(0, 19)}Z`;
}

/**
 * The devices list's filter as the bulk revocation takes it (docs/decisions/0019 "Bulk
 * revocation"): who, which device, which address, and the creation range, ending no later than
 * now. The end is fixed when the devices are counted, so a device registered while the person reads
 * the question is not among those revoked, and the count they confirm stays true.
 */
export function bulkRevocationFilter(state: ListState, now: Date): DeviceFilter {
  const { userId, deviceName, ip } = state.filters;
  const range = dateRangeQuery(state.filters);
  const until = thisSecond(now);
  const toDate = range.toDate && Date.parse(range.toDate) < Date.parse(until) ? range.toDate : until;
  return {
    ...(userId ? { userId } : {}),
    ...(deviceName ? { deviceName } : {}),
    ...(ip ? { ip } : {}),
    ...(range.fromDate ? { fromDate: range.fromDate } : {}),
    toDate,
  };
}

/**
 * POST projects/{project}/mpinids/revocations, as the console drives it: `ask` counts the active
 * devices matching the list's filter (`limit: 0`); `confirm` revokes them in batches, each call
 * stating how many it expects to find (the server refuses when more match than that); `stop` ends
 * the run after the batch under way. Every batch is safe to repeat: a revoked device no longer
 * matches, so an interrupted run is finished by asking again.
 */
export function useBulkRevocation(projectId: string) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<BulkRevocationState>({ step: 'idle' });
  const stopping = useRef(false);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      stopping.current = true;
    };
  }, []);

  const call = useCallback(
    (filter: DeviceFilter, limit: number, expectedCount?: number) =>
      request(api.revokeDevices, {
        params: { project: projectId },
        body: { reason: REVOCATION_REASON, filter, limit, ...(expectedCount === undefined ? {} : { expectedCount }) },
      }),
    [projectId],
  );

  const refresh = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: resourceKey(api.listDevices, { project: projectId }) });
    void queryClient.invalidateQueries({ queryKey: resourceKey(api.listAuditEvents, { project: projectId }) });
  }, [queryClient, projectId]);

  /** Counts the active devices of the list's filter; resolves to that count (0: nothing to ask). */
  const ask = useCallback(
    async (list: ListState): Promise<number> => {
      const now = new Date();
      const filter = bulkRevocationFilter(list, now);
      setState({ step: 'counting' });
      try {
        const { remaining } = await call(filter, 0);
        if (mounted.current)
          setState(remaining > 0 ? { step: 'asking', filter, count: remaining, until: filter.toDate ?? thisSecond(now) } : { step: 'idle' });
        return remaining;
      } catch (error) {
        if (mounted.current) setState({ step: 'idle' });
        throw error;
      }
    },
    [call],
  );

  const confirm = useCallback(async (): Promise<BulkRevocationOutcome | null> => {
    if (state.step !== 'asking') return null;
    const { filter, count, until } = state;
    stopping.current = false;
    let revoked = 0;
    let expected = count;
    let error: unknown = null;
    setState({ step: 'revoking', filter, count, until, revoked, stopping: false });
    try {
      while (expected > 0 && !stopping.current) {
        const answer = await call(filter, BULK_REVOCATION_BATCH, expected);
        revoked += answer.revoked;
        expected = answer.remaining;
        if (mounted.current) setState({ step: 'revoking', filter, count, until, revoked, stopping: stopping.current });
        if (answer.revoked === 0) break;
      }
    } catch (cause) {
      error = cause;
    }
    refresh();
    if (mounted.current) setState({ step: 'idle' });
    return { count, revoked, finished: expected === 0 && error === null, error };
  }, [state, call, refresh]);

  const stop = useCallback(() => {
    stopping.current = true;
    setState((now) => (now.step === 'revoking' ? { ...now, stopping: true } : now));
  }, []);

  const dismiss = useCallback(() => setState((now) => (now.step === 'asking' ? { step: 'idle' } : now)), []);

  return { state, ask, confirm, stop, dismiss };
}
