import { guards } from '../permissions/guards.ts';
import { GLOBAL_WILDCARD, hasAnyPermission, hasPermission } from '../permissions/check.ts';
import { projectOfPermission } from '../permissions/catalogue.ts';
import { SEARCH_KINDS, type SearchKind, type SearchResult } from './schema.ts';

/** The guard of the page each kind of result opens (spec §6, docs/decisions/0004): the search shows nothing the page would refuse. */
export const SEARCH_GUARDS: Record<SearchKind, readonly string[]> = {
  project: guards.projectMember,
  app: guards.apps,
  account: guards.accounts,
  user: guards.endUsers,
  device: guards.devices,
  audit: guards.audit,
};

/** Where an account may find one kind of thing: in every project (a global permission passes the guard), or in the listed ones. */
export interface SearchReach {
  everyProject: boolean;
  /** Sorted, each once; empty when `everyProject`. */
  projects: string[];
}

/**
 * Where an account holding `held` may find `kind`: every project when a global entry of the kind's
 * guard passes (`glb::*` passes every guard), otherwise each project named by a permission it holds
 * on which the guard passes. Computed from the permissions alone, so the search asks the database
 * once per kind whatever the number of projects.
 */
export function searchReach(held: readonly string[], kind: SearchKind): SearchReach {
  const guard = SEARCH_GUARDS[kind];
  const everyProject = held.includes(GLOBAL_WILDCARD) || guard.some((p) => projectOfPermission(p) === null && hasPermission(held, p));
  if (everyProject) return { everyProject, projects: [] };
  const named = new Set(held.map(projectOfPermission).filter((p): p is string => p !== null));
  return { everyProject, projects: [...named].filter((p) => hasAnyPermission(held, guard, p)).sort() };
}

/** Can the account find this kind anywhere at all? */
export const reachesAny = (reach: SearchReach): boolean => reach.everyProject || reach.projects.length > 0;

const KIND_ORDER = new Map<SearchKind, number>(SEARCH_KINDS.map((k, i) => [k, i]));

/** One result per thing: an account found in two projects once (the first after ranking); a device by project and mpinId. */
const identity = (r: SearchResult) => `${r.kind}:${r.kind === 'device' ? `${r.projectId}/` : ''}${r.id}`;

/**
 * The palette's order: the current project's results first, then whole-id matches before prefix
 * matches, then by kind (project, app, account, device, audit), title (any case) and id; each thing
 * once; at most `limit`.
 */
export function rankSearchResults(results: readonly SearchResult[], currentProject: string | undefined, limit: number): SearchResult[] {
  const key = (r: SearchResult) => [r.projectId === currentProject ? 0 : 1, r.exact ? 0 : 1, KIND_ORDER.get(r.kind) ?? 9] as const;
  const sorted = [...results].sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return (ka[i] as number) - (kb[i] as number);
    const byTitle = a.title.toLowerCase().localeCompare(b.title.toLowerCase());
    return byTitle !== 0 ? byTitle : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
  const seen = new Set<string>();
  const out: SearchResult[] = [];
  for (const r of sorted) {
    const k = identity(r);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(r);
    if (out.length === limit) break;
  }
  return out;
}
