// spec §6: permission strings have three colon-separated segments, e.g. `cst:{project}:apps`,
// `glb::projects`. This is the one implementation of the check; server guards and console guards
// both call it.

export const GLOBAL_WILDCARD = 'glb::*';
export const CURRENT_PROJECT = '<C>';

/**
 * Does an account holding `held` pass the check for `asked`?
 *  - `glb::*` passes everything;
 *  - the first two segments of `asked` followed by `:*` pass;
 *  - the exact string passes;
 *  - `<C>` in `asked` is replaced by the current project id (no current project: fails);
 *  - a third segment `?` is passed by any held permission that begins with the first two
 *    segments plus `:`.
 */
export function hasPermission(held: readonly string[], asked: string, currentProject?: string | null): boolean {
  let resolved = asked;
  if (asked.includes(CURRENT_PROJECT)) {
    if (!currentProject) return false;
    resolved = asked.replaceAll(CURRENT_PROJECT, currentProject);
  }
  if (held.includes(GLOBAL_WILDCARD)) return true;
  const segments = resolved.split(':');
  if (segments.length !== 3) return false;
  const [first, second, third] = segments as [string, string, string];
  const prefix = `${first}:${second}:`;
  if (held.includes(`${prefix}*`)) return true;
  if (third === '?') return held.some((p) => p.startsWith(prefix));
  return held.includes(resolved);
}

/** Passes when any one of `asked` passes. An empty list passes for every signed-in account. */
export function hasAnyPermission(held: readonly string[], asked: readonly string[], currentProject?: string | null): boolean {
  return asked.length === 0 || asked.some((a) => hasPermission(held, a, currentProject));
}
