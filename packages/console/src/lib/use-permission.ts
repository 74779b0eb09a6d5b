import { hasAnyPermission } from '@latchkey/domain';
import { useCurrentProjectId } from './project-context.ts';
import { useSessionAccount } from './session.ts';

/**
 * spec §6: does the signed-in account pass `guard` (any one entry) for the current project?
 * A null guard passes for every signed-in account.
 */
export function usePermission(guard: readonly string[] | null): boolean {
  const account = useSessionAccount();
  const projectId = useCurrentProjectId();
  return guard === null || hasAnyPermission(account.permissions, guard, projectId);
}
