import { CURRENT_PROJECT } from './check.ts';

const C = CURRENT_PROJECT;

// spec §6 "Page guards", and the global permission that covers the same ground across projects.
// Each guard is a list: passing any one entry passes the guard.
export const guards = {
  /** Any permission on the project at all: enough to see it listed and read its name. */
  projectMember: [`cst:${C}:?`, 'glb::?'],
  dashboard: [`cst:${C}:usage`, 'glb::usage'],
  apps: [`cst:${C}:apps`, 'glb::apps'],
  accounts: [`cst:${C}:accounts`, 'glb::accounts'],
  audit: [`cst:${C}:audit`],
  devices: [`cst:${C}:revocation`],
  /** settings, branding, user verification, OIDC, mobile apps and closing the project. */
  projectAdmin: [`cst:${C}:*`, 'glb::projects'],
  /** spec §6 "Global unlock": domains, confirmation URL and association files. */
  globalUnlock: ['glb::?'],
  /** Reopening a closed project is not offered to project admins (spec §4). */
  reopenProject: ['glb::projects'],
} as const satisfies Record<string, readonly string[]>;

export type GuardName = keyof typeof guards;
