import { GLOBAL_SCOPES, PROJECT_SCOPES, isGrantablePermission, projectOfPermission } from '../permissions/catalogue.ts';
import { hasAnyPermission, hasPermission } from '../permissions/check.ts';
import { guards } from '../permissions/guards.ts';

// spec §5 "a child permission is disabled while its parent is checked", §6, issue 12: who may
// grant what, and what no change may take from a project.

/**
 * spec §5: while a parent (`cst:{project}:*`, `glb::*`) is held its children are implied, so a
 * list keeps the parent alone; the rest is kept once, in the catalogue's order.
 */
export function normalizePermissions(permissions: readonly string[]): string[] {
  const unique = [...new Set(permissions)];
  const kept = unique.filter((p) => {
    const [kind, middle, scope] = p.split(':');
    if (scope === '*') return true;
    return !unique.includes(`${kind}:${middle}:*`);
  });
  return kept.sort((a, b) => order(a) - order(b) || a.localeCompare(b));
}

const CATALOGUE_ORDER = ['*', ...PROJECT_SCOPES, ...GLOBAL_SCOPES];
function order(permission: string): number {
  const [kind, , scope = ''] = permission.split(':');
  return (kind === 'glb' ? 100 : 0) + CATALOGUE_ORDER.indexOf(scope);
}

/** The permissions of one project (`cst:{project}:…`) in a list. */
export function permissionsOfProject(permissions: readonly string[], projectId: string): string[] {
  return permissions.filter((p) => projectOfPermission(p) === projectId);
}

/**
 * What a permission list asked for a project may hold: this project's permissions and global ones
 * from the catalogue; anything else (another project's, an unknown scope) answers the offending
 * permissions.
 */
export function foreignPermissions(permissions: readonly string[], projectId: string): string[] {
  return permissions.filter((p) => !isGrantablePermission(p) || (projectOfPermission(p) !== projectId && !p.startsWith('glb::')));
}

/**
 * Issue 12 "No one grants what they do not hold": the permissions in `granted` that an account
 * holding `held` may not give (its wildcards cover their children; `glb::*` covers everything).
 */
export function ungrantablePermissions(held: readonly string[], granted: readonly string[]): string[] {
  // A pattern of the check (`?`, `<C>`) is asked, never held: it is never given.
  return granted.filter((p) => !isGrantablePermission(p) || !hasPermission(held, p));
}

/** Does an account holding `permissions` administer the project (spec §6: `cst:{project}:*`, or a global equivalent)? */
export function administersProject(permissions: readonly string[], projectId: string): boolean {
  return hasAnyPermission(permissions, guards.projectAdmin, projectId);
}
