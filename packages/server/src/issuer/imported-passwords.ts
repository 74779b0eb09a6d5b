import type { Clock } from '../clock.ts';
import type { Db } from '../db/db.ts';
import type { ImportedPasswords } from '../oidc/pages/site.ts';
import { deleteImportedPassword, projectHasImportedPasswords, usableImportedPassword } from '../people/imported-passwords.repository.ts';
import { decoyCheck, passwordMatches } from '../people/password-hashes.ts';

/** Checks at once, server-wide: each may take a few hundred milliseconds of a CPU (the hashes' bounds). */
const MAX_CHECKS_AT_ONCE = 2;
let running = 0;
const waiting: Array<() => void> = [];

/** At most MAX_CHECKS_AT_ONCE hash checks run together; the others wait their turn (the tries' limits bound how many come). */
async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CHECKS_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

/** A project's imported password hashes at its sign-in pages (docs/decisions/0052). */
export function projectImportedPasswords(deps: { db: Db; clock: Clock; projectId: string }): ImportedPasswords {
  const { db, clock, projectId } = deps;
  return {
    offered: () => projectHasImportedPasswords(db, projectId, clock.now()),
    async check(email, password) {
      const found = await usableImportedPassword(db, { projectId, email, now: clock.now() });
      // An address without a usable hash costs the same kind of work: the answer's time tells nothing.
      return inTurn(() => (found ? passwordMatches(password, found.hash) : decoyCheck(password)));
    },
    async used(email) {
      const found = await usableImportedPassword(db, { projectId, email, now: clock.now() });
      if (found) await deleteImportedPassword(db, projectId, found.userId);
    },
  };
}
