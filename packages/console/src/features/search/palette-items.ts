import { guards, hasAnyPermission, type SearchKind, type SearchResult } from '@latchkey/domain';
import { routeNames, routeOf, routes, type NavLabelKey, type PageTitleKey, type RouteName } from '../../lib/routes.ts';

/** A group of the palette's list: the pages to jump to, then what the search found, by kind. */
export type PaletteGroup = 'pages' | SearchKind;

/** One line of the palette: what it says and where it leads. */
export interface PaletteItem {
  key: string;
  group: PaletteGroup;
  /** A page's name (`nav.*` or `pages.*` key, translated by the view) or a found thing's title. */
  label: { key: `nav.${NavLabelKey}` | `pages.${PageTitleKey}` } | { text: string };
  /** The second line: a client id, an email, the project a result is in. */
  detail: string | null;
  /** A state worth saying (closed project, disabled app, revoked device): a `search` text key. */
  state: 'closed' | 'disabled' | 'inactive' | 'revoked' | 'blocked' | 'serviceAccount' | null;
  to: string;
}

// Pages outside a project the palette offers (spec §2 routes), each behind its own guard.
const ACCOUNT_PAGES = ['projectList', 'projectCreate', 'globalUsage'] as const satisfies readonly RouteName[];

/**
 * The pages the palette jumps to: every page of the current project's menu (spec §2 "Layout") the
 * account may open, then the project list, project creation and, with `glb::usage`, the usage of
 * every project. A page whose guard the account does not pass is not offered.
 */
export function pageItems(projectId: string | null, permissions: readonly string[]): PaletteItem[] {
  const items: PaletteItem[] = [];
  if (projectId) {
    for (const name of routeNames) {
      const def = routeOf(name);
      if (!def.menu || (def.guard && !hasAnyPermission(permissions, def.guard, projectId))) continue;
      items.push({
        key: `page:${name}`,
        group: 'pages',
        label: { key: `nav.${def.menu.label}` },
        detail: null,
        state: null,
        to: (routes[name] as (project: string) => string)(projectId),
      });
    }
  }
  for (const name of ACCOUNT_PAGES) {
    const def = routeOf(name);
    if (def.guard && !hasAnyPermission(permissions, def.guard)) continue;
    items.push({ key: `page:${name}`, group: 'pages', label: { key: `pages.${def.title}` }, detail: null, state: null, to: routes[name]() });
  }
  return items;
}

/** `YYYY-MM-DD` (UTC) of an ISO 8601 time: the day a list's date range must hold to show it. */
const dayOf = (iso: string) => iso.slice(0, 10);

/** A list page filtered by the URL hash (the lists keep their filters there: lib/list-state). */
const filtered = (path: string, filters: Record<string, string>) => `${path}#${new URLSearchParams(filters).toString()}`;

/** Where a found thing opens. */
export function resultLink(result: SearchResult, permissions: readonly string[]): string {
  switch (result.kind) {
    case 'project':
      // The project card's destination; an account without usage opens the project's welcome page.
      return hasAnyPermission(permissions, guards.dashboard, result.id) ? routes.projectDashboard(result.id) : routes.projectWelcome(result.id);
    case 'app':
      return routes.appSettings(result.projectId, result.id);
    case 'account':
      return routes.accountSettings(result.projectId, result.id);
    case 'user':
      return routes.userDetail(result.projectId, result.id);
    case 'device':
      // The devices list of its owner on the day it was registered: the device is on that page.
      return filtered(routes.projectDevices(result.projectId), {
        userId: result.userId,
        fromDate: dayOf(result.createdAt),
        toDate: dayOf(result.createdAt),
      });
    case 'audit':
      // The audit log has no id filter: the event's day, narrowed to its user when it has one.
      return filtered(routes.projectAudit(result.projectId), {
        fromDate: dayOf(result.createdAt),
        toDate: dayOf(result.createdAt),
        ...(result.userId ? { userId: result.userId } : {}),
      });
  }
}

function stateOf(result: SearchResult): PaletteItem['state'] {
  if (result.kind === 'app' && !result.enabled) return 'disabled';
  if (result.kind === 'device' && result.revoked) return 'revoked';
  if (result.kind === 'user' && result.blocked) return 'blocked';
  if (result.kind === 'account' && !result.active) return 'inactive';
  if (result.kind === 'account' && result.serviceAccount) return 'serviceAccount';
  if (!result.projectEnabled) return 'closed';
  return null;
}

/**
 * A found thing as a line: its title, and beside the detail the server gave the project it is in
 * when that is not the current one.
 */
export function resultItem(result: SearchResult, currentProjectId: string | null, permissions: readonly string[]): PaletteItem {
  const where = result.kind !== 'project' && result.projectId !== currentProjectId ? result.projectName : null;
  const detail = [result.detail, where].filter((part): part is string => Boolean(part)).join(' · ') || null;
  return {
    key: `${result.kind}:${result.projectId}:${result.id}`,
    group: result.kind,
    label: { text: result.title },
    detail,
    state: stateOf(result),
    to: resultLink(result, permissions),
  };
}

/** Does a page's name contain what was typed (any case)? An empty query keeps every page. */
export function pageMatches(name: string, query: string): boolean {
  const q = query.trim().toLocaleLowerCase();
  return q === '' || name.toLocaleLowerCase().includes(q);
}
