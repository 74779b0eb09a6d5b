import { skipToken } from '@tanstack/react-query';
import { api } from '../../../lib/api/index.ts';
import { utcDay } from '../../../lib/format-date.ts';
import { useApiQuery } from '../../../lib/use-api.ts';

/** How many of a user's events their page shows. */
export const RECENT_EVENTS = 10;
const YEAR_MS = 365 * 24 * 3600 * 1000;

/** The last year, as days (`YYYY-MM-DD`): the range the page reads, and the audit log's link shows. */
export const lastYear = (now = new Date()) => ({ fromDate: utcDay(new Date(now.getTime() - YEAR_MS)), toDate: utcDay(now) });

/** The audit log's last events of `identity` over the last year (the longest range the log answers); `enabled`: the account may read the log. */
export function useUserEvents(projectId: string, identity: string | undefined, enabled: boolean) {
  const { fromDate, toDate } = lastYear();
  return useApiQuery(
    api.listAuditEvents,
    enabled && identity !== undefined
      ? {
          params: { project: projectId },
          query: { userId: identity, fromDate: `${fromDate}T00:00:00Z`, toDate: `${toDate}T23:59:59Z`, limit: RECENT_EVENTS },
        }
      : skipToken,
  );
}
