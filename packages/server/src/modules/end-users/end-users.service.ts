import { createEndUserChanges } from './end-user-changes.ts';
import { createEndUserErasure } from './end-user-erasure.ts';
import { createEndUserReads } from './end-user-reads.ts';
import { createEndUserRecovery, type EndUserRecoveryDeps } from './end-user-recovery.ts';

export type { EndUsersServiceDeps } from './end-user-changes.ts';

/**
 * A project's end users (issue 24, docs/decisions/0038): their page, their data (end-user-reads.ts),
 * and the changes an administrator makes (end-user-changes.ts, end-user-erasure.ts) — each in one
 * transaction with its audit event, with the project locked open (a closed project is read-only,
 * spec §4) and the user's row locked.
 */
export function createEndUsersService(deps: EndUserRecoveryDeps) {
  const recovery = createEndUserRecovery(deps);
  return {
    ...createEndUserReads({ ...deps, recoveryOf: recovery.recoveryOf }),
    createReenrollmentLink: recovery.createReenrollmentLink,
    ...createEndUserChanges(deps),
    ...createEndUserErasure(deps),
  };
}

export type EndUsersService = ReturnType<typeof createEndUsersService>;
