import { DomainError, IMPORT_MESSAGES, type ImportedPerson, type ImportRefusal } from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import { randomToken } from '../../crypto.ts';
import type { Db } from '../../db/db.ts';
import { polledRounds } from '../../outbox/polled-rounds.ts';
import { insertImportedUsers } from '../../people/end-users.repository.ts';
import { insertImportedPasswords } from '../../people/imported-passwords.repository.ts';
import { lockOpenProjectForImport } from '../../people/open-project.ts';
import type { AuditHook } from '../audit/audit.service.ts';
import { isBlank, readLine } from './import-lines.ts';
import {
  claimImport,
  deleteChunk,
  failAbandonedUploads,
  failImport,
  findImport,
  finishImport,
  holdImport,
  nextChunk,
  recordBatch,
  releaseImport,
  type ClaimedImport,
  type ImportActor,
  type StoredChunk,
} from './user-imports.repository.ts';

/**
 * A job is its worker's (or its upload's) for this long past its last chunk: past it, any instance
 * resumes the job (or fails the upload, cut off without a word).
 */
export const IMPORT_LEASE_MS = 60_000;
/** How often each instance looks for a job to take (the instance that stored one is nudged at once). */
export const IMPORT_POLL_MS = 5_000;
/** Tries of one chunk on an instance before its job is failed (an error that is not the project's). */
export const CHUNK_TRIES = 3;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The audit event of a job that ended (docs/decisions/0052), in the transaction that ends it, with its counts. */
export async function importEnded(
  tx: Db,
  audit: AuditHook,
  job: { projectId: string; id: string; actor: ImportActor },
  result: 'success' | 'failed',
): Promise<void> {
  const done = await findImport(tx, job.projectId, job.id);
  await audit(tx, {
    actor: { ...job.actor, permissions: [] },
    action: 'user.import',
    result,
    projectId: job.projectId,
    details: {
      importId: job.id,
      lines: done?.lines ?? 0,
      imported: done?.imported ?? 0,
      unchanged: done?.unchanged ?? 0,
      refused: done?.refused ?? 0,
    },
  });
}

/**
 * Inside a chunk's transaction: its lines read, its new people and their hashes written (the first
 * line of an address creates the person; a person already there is left exactly as is), its refused
 * lines and the job's counts recorded.
 */
async function writeChunk(tx: Db, job: ClaimedImport, chunk: StoredChunk, p: { passwordDays: number; now: Date }): Promise<void> {
  const tooLong = new Set(chunk.tooLong);
  const people: Array<{ line: number; person: ImportedPerson }> = [];
  const refusals: ImportRefusal[] = [];
  chunk.body.split('\n').forEach((text, i) => {
    const line = { number: chunk.firstLine + i, text, tooLong: tooLong.has(chunk.firstLine + i) };
    if (isBlank(line)) return;
    const result = readLine(line, job.format === 'csv' ? job.csvHeader : null);
    if ('person' in result) people.push(result);
    else refusals.push(result);
  });
  const created = await insertImportedUsers(
    tx,
    job.projectId,
    people.map((l) => l.person),
    p.now,
  );
  const hashes: Array<{ userId: string; hash: string }> = [];
  const taken = new Set<string>();
  for (const { person } of people) {
    const userId = created.get(person.email);
    if (userId === undefined || taken.has(person.email)) continue;
    taken.add(person.email);
    if (person.passwordHash !== null) hashes.push({ userId, hash: person.passwordHash });
  }
  await insertImportedPasswords(tx, job.projectId, hashes, new Date(p.now.getTime() + p.passwordDays * DAY_MS));
  await recordBatch(tx, {
    projectId: job.projectId,
    id: job.id,
    lines: people.length + refusals.length,
    imported: created.size,
    unchanged: people.length - created.size,
    refusals,
    now: p.now,
  });
  await deleteChunk(tx, job.projectId, job.id, chunk.seq);
}

export interface ImportWorkerDeps {
  db: Db;
  clock: Clock;
  audit: AuditHook;
  /** Where a failed round is reported (its job is resumed once its lease is over). */
  warn(error: unknown): void;
}

/**
 * The import worker of every instance (issue 37, docs/decisions/0052), in the outbox's polled
 * rounds (outbox/polled-rounds.ts): a round fails the uploads cut off without a word, then takes
 * the oldest job whose lease is over and imports it a chunk at a time — each chunk one transaction,
 * with the project held open, that writes its people, records the progress, renews the lease and
 * deletes the chunk — so a job stopped anywhere resumes after its last committed chunk, on any
 * instance. At `stop` the job under way is released at once for the next instance.
 */
export function createImportWorker(deps: ImportWorkerDeps) {
  const { db, clock, audit } = deps;
  /** Failed tries of a job's next chunk on this instance, by job id (cleared when the job moves on or ends). */
  const failedTries = new Map<string, number>();
  const lease = () => {
    const now = clock.now();
    return { now, leaseUntil: new Date(now.getTime() + IMPORT_LEASE_MS) };
  };

  /** One chunk of the job, or its end when none is left; 'lost' when another instance holds it now. */
  async function step(job: ClaimedImport): Promise<'chunk' | 'ended' | 'lost'> {
    try {
      return await db.transaction(async (tx) => {
        const { importedPasswordDays } = await lockOpenProjectForImport(tx, job.projectId);
        const held = lease();
        if (!(await holdImport(tx, job, held))) return 'lost';
        const chunk = await nextChunk(tx, job.projectId, job.id);
        if (chunk) {
          await writeChunk(tx, job, chunk, { passwordDays: importedPasswordDays, now: held.now });
          failedTries.delete(job.id);
          return 'chunk';
        }
        await finishImport(tx, { projectId: job.projectId, id: job.id, failure: null, now: held.now });
        await importEnded(tx, audit, job, 'success');
        return 'ended';
      });
    } catch (error) {
      let failure: string;
      if (error instanceof DomainError) {
        // The project closed meanwhile: the job ends there (the chunks before stay imported).
        failure = error.message;
      } else {
        // Anything else (the database away, a statement refused) is tried again after the lease, by
        // any instance; the same job failing here CHUNK_TRIES times in a row ends it, so no chunk is
        // retried forever.
        const tries = (failedTries.get(job.id) ?? 0) + 1;
        if (tries < CHUNK_TRIES) {
          failedTries.set(job.id, tries);
          throw error;
        }
        deps.warn(error);
        const code = (error as { code?: unknown }).code;
        failure = IMPORT_MESSAGES.chunkFailed(typeof code === 'string' ? code : 'error');
      }
      failedTries.delete(job.id);
      await db.transaction(async (tx) => {
        if (!(await holdImport(tx, job, lease()))) return;
        await failImport(tx, { projectId: job.projectId, id: job.id, failure, now: clock.now() });
        await importEnded(tx, audit, job, 'failed');
      });
      return 'ended';
    }
  }

  /**
   * One round: cut-off uploads failed, then jobs taken one after another until none is due;
   * `stopping` is asked once before each step (a chunk, or a job's end). Answers the chunks written.
   */
  async function round(stopping: () => boolean): Promise<number> {
    await failAbandonedUploads(db, clock.now(), (tx, job) => importEnded(tx, audit, job, 'failed'));
    let chunks = 0;
    let job: ClaimedImport | null = null;
    for (;;) {
      if (stopping()) {
        if (job) await releaseImport(db, job, clock.now());
        return chunks;
      }
      job ??= await claimImport(db, { ...lease(), holder: randomToken(12) });
      if (!job) return chunks;
      const done = await step(job);
      if (done === 'chunk') chunks += 1;
      else job = null;
    }
  }

  const rounds = polledRounds({ round, pollMs: IMPORT_POLL_MS, warn: deps.warn });
  return { ...rounds, round };
}

export type ImportWorker = ReturnType<typeof createImportWorker>;
