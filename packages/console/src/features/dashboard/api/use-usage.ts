import type { EnrollmentFunnel, Scope, UsageLocations, UsagePeriods, UsageProjects } from '@latchkey/domain';
import { useQuery } from '@tanstack/react-query';
import { api, request } from '../../../lib/api/index.ts';
import { dateRangeQuery } from '../../../lib/list-state/use-ranged-list.ts';
import { readKey } from '../../../lib/api/query-key.ts';

/**
 * A usage read's cache key: of one project, or of every project (null). Its `type` is in the key even
 * where the server's default answers it, so each hook's narrowed answer has an entry of its own.
 */
function usageKey(projectId: string | null, query: object) {
  return projectId ? readKey(api.getUsage, { params: { project: projectId }, query }) : readKey(api.getGlobalUsage, { query });
}

/** The dashboard's filters as its state holds them: days (`YYYY-MM-DD`) and a scope. */
export interface UsageFilters {
  fromDate: string;
  toDate: string;
  scope?: Scope | undefined;
}

/** spec §7 "Usage": fromDate as the date + T00:00:00Z, toDate as the date + T23:59:59Z, and the scope. */
function usageQuery(filters: UsageFilters) {
  return { ...dateRangeQuery({ fromDate: filters.fromDate, toDate: filters.toDate }), ...(filters.scope ? { scope: filters.scope } : {}) };
}

// The answers are unions by `type` (domain usageSchema); each hook asks for one type and narrows.
const isPeriods = (answer: object): answer is UsagePeriods => 'periods' in answer;
const isLocations = (answer: object): answer is UsageLocations => 'locations' in answer;
const isProjects = (answer: object): answer is UsageProjects => 'projects' in answer;

function narrow<T extends object>(answer: object, is: (a: object) => a is T): T {
  if (!is(answer)) throw new Error('Unexpected usage answer');
  return answer;
}

/**
 * The chart's periods: of one project (`projectId`), or of every project (null, glb::usage). The
 * period type is left to the server (spec §4's rule, the same the domain states).
 */
export function useUsagePeriods(projectId: string | null, filters: UsageFilters) {
  const query = usageQuery(filters);
  return useQuery({
    queryKey: usageKey(projectId, { ...query, type: 'periods' }),
    queryFn: async ({ signal }) =>
      narrow(
        projectId
          ? await request(api.getUsage, { params: { project: projectId }, query, signal })
          : await request(api.getGlobalUsage, { query, signal }),
        isPeriods,
      ),
    placeholderData: (previous) => previous,
  });
}

/** spec §7: the map adds type=locations and locationType=country. */
export function useUsageLocations(projectId: string | null, filters: UsageFilters) {
  const query = { ...usageQuery(filters), type: 'locations' as const, locationType: 'country' as const };
  return useQuery({
    queryKey: usageKey(projectId, query),
    queryFn: async ({ signal }) =>
      narrow(
        projectId
          ? await request(api.getUsage, { params: { project: projectId }, query, signal })
          : await request(api.getGlobalUsage, { query, signal }),
        isLocations,
      ),
    placeholderData: (previous) => previous,
  });
}

/** The global dashboard's top projects in the range. */
export function useUsageProjects(filters: UsageFilters) {
  const query = { ...usageQuery(filters), type: 'projects' as const };
  return useQuery({
    queryKey: usageKey(null, query),
    queryFn: async ({ signal }) => narrow(await request(api.getGlobalUsage, { query, signal }), isProjects),
    placeholderData: (previous) => previous,
  });
}

/** Issue 37 (docs/decisions/0050): a project's passkey enrollment funnel over the dashboard's days. */
export function useEnrollmentFunnel(projectId: string, range: { fromDate: string; toDate: string }) {
  const query = dateRangeQuery(range);
  return useQuery<EnrollmentFunnel>({
    queryKey: readKey(api.getEnrollmentFunnel, { params: { project: projectId }, query }),
    queryFn: ({ signal }) => request(api.getEnrollmentFunnel, { params: { project: projectId }, query, signal }),
    placeholderData: (previous) => previous,
  });
}
