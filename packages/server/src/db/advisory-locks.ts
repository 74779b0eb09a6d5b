/**
 * The transaction-scoped advisory locks (pg_advisory_xact_lock) of the whole server, by name. Each
 * is a constant every instance shares, so two instances of the server serialise on the same lock;
 * the numbers only have to differ from each other. DESIGN "The data plane": advisory locks only
 * where a row lock cannot do — around migrations (and the event partitions the server creates
 * ahead, which are schema too) and around account creation and changes.
 */
export const ADVISORY_LOCKS = {
  /** Two instances starting at once apply each migration exactly once (db/migrate.ts). */
  migrations: 7_331_001,
  /**
   * "The first account becomes the owner" cannot happen twice (accounts.repository.ts), an address
   * is made an account once, and account changes run one at a time (issue 12: a status and a
   * global permission reach every project, so no row lock of one project covers them).
   */
  accountCreation: 7_331_002,
  /** Two instances creating next month's event partition at once create it once (event-partitions.ts). */
  eventPartitions: 7_331_003,
} as const;

export type AdvisoryLock = keyof typeof ADVISORY_LOCKS;

/** The SQL that takes `lock` until the transaction ends, and its parameters. */
export function advisoryLockQuery(lock: AdvisoryLock): [string, [number]] {
  return ['SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCKS[lock]]];
}
