import { globalPermission as glb, projectPermission } from './catalogue.ts';
import { CURRENT_PROJECT } from './check.ts';

/** A permission on the current project (`cst:<C>:{scope}`), resolved by the check. */
const cst = (scope: Parameters<typeof projectPermission>[1]) => projectPermission(CURRENT_PROJECT, scope);

// spec §6 "Page guards", and the global permission that covers the same ground across projects.
// Each guard is a list: passing any one entry passes the guard.
export const guards = {
  /** Any permission on the project at all: enough to see it listed and read its name. */
  projectMember: [cst('?'), glb('?')],
  dashboard: [cst('usage'), glb('usage')],
  /** The dashboard over every project (issue 10). */
  globalUsage: [glb('usage')],
  apps: [cst('apps'), glb('apps')],
  accounts: [cst('accounts'), glb('accounts')],
  audit: [cst('audit')],
  devices: [cst('revocation')],
  /** Issue 24, docs/decisions/0038: a project's end users are seen by who sees their events or their devices… */
  endUsers: [cst('audit'), cst('revocation')],
  /** …and blocked, unblocked, signed out and deleted by who may revoke their devices. */
  endUserChanges: [cst('revocation')],
  /** settings, branding, user verification, OIDC, mobile apps and closing the project. */
  projectAdmin: [cst('*'), glb('projects')],
  /** spec §6 "Global unlock": domains, confirmation URL and association files. */
  globalUnlock: [glb('?')],
  /** Reopening a closed project is not offered to project admins (spec §4). */
  reopenProject: [glb('projects')],
} as const satisfies Record<string, readonly string[]>;

export type GuardName = keyof typeof guards;
