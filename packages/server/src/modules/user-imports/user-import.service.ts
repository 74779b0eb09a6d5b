import type { Readable } from 'node:stream';
import {
  DomainError,
  EXPORT_ONLY_FIELDS,
  IMPORT_FIELDS,
  IMPORT_LINE_MAX_BYTES,
  importedPerson,
  isLineRefusal,
  type ImportedPerson,
  type ImportFormat,
  type ImportRefusal,
  type UserImport,
  type UserImportReport,
} from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import { randomToken } from '../../crypto.ts';
import type { Db } from '../../db/db.ts';
import { notFound } from '../../errors.ts';
import type { Actor } from '../../http/actor.ts';
import { identityTypeOf, insertImportedUsers } from '../../people/end-users.repository.ts';
import { insertImportedPasswords } from '../../people/imported-passwords.repository.ts';
import { lockOpenProject } from '../../people/open-project.ts';
import { isRefusal, parsePasswordHash } from '../../people/password-hashes.ts';
import type { AuditHook } from '../audit/audit.service.ts';
import { csvFields, linesOf, type FileLine } from './import-lines.ts';
import { findImport, finishImport, insertImport, latestImports, recordBatch, refusalsOf } from './user-imports.repository.ts';

/** Lines written together: one INSERT of people, one of hashes, one of refusals, one progress update. */
export const IMPORT_BATCH = 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** A CSV header's names: the import's fields and the export's own (an export's columns import as they are). */
const HEADER_NAMES = new Set<string>([...IMPORT_FIELDS, ...EXPORT_ONLY_FIELDS]);

type LineResult = { line: number; person: ImportedPerson } | ImportRefusal;

/** A line's fields: a JSON object, or a CSV record under the header's names. */
function fieldsOf(line: FileLine, header: string[] | null): { fields: Record<string, unknown> } | { refusal: ImportRefusal } {
  const refusal = (reason: ImportRefusal['reason'], message: string) => ({ refusal: { line: line.number, reason, message } });
  if (line.tooLong) return refusal('line_too_long', `The line is longer than ${IMPORT_LINE_MAX_BYTES} bytes`);
  if (header === null) {
    let value: unknown;
    try {
      value = JSON.parse(line.text);
    } catch {
      return refusal('not_json', 'The line is not JSON');
    }
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? { fields: value as Record<string, unknown> }
      : refusal('not_an_object', 'The line is not a JSON object');
  }
  const cells = csvFields(line.text);
  if (cells === null) return refusal('csv_quotes', 'A quoted field does not close on this line');
  if (cells.length !== header.length) return refusal('csv_columns', `The line has ${cells.length} fields, the header ${header.length}`);
  return { fields: Object.fromEntries(header.map((name, i) => [name, cells[i]])) };
}

/** What is stored of a line, or why nothing of it is. */
export function readLine(line: FileLine, header: string[] | null): LineResult {
  const read = fieldsOf(line, header);
  if ('refusal' in read) return read.refusal;
  const person = importedPerson(read.fields);
  if (isLineRefusal(person)) return { line: line.number, ...person };
  if (person.passwordHash !== null) {
    const parsed = parsePasswordHash(person.passwordHash);
    if (isRefusal(parsed)) return { line: line.number, ...parsed };
  }
  return { line: line.number, person };
}

interface ImportDeps {
  db: Db;
  clock: Clock;
  audit: AuditHook;
}

/** One batch in one transaction, the project held open: its new people, their hashes, its refused lines, the job's progress. */
async function writeBatch(
  { db, clock }: ImportDeps,
  projectId: string,
  id: string,
  batch: { lines: number; people: Array<{ line: number; person: ImportedPerson }>; refusals: ImportRefusal[] },
  passwordDays: number,
): Promise<void> {
  await db.transaction(async (tx) => {
    await lockOpenProject(tx, projectId);
    const now = clock.now();
    const created = await insertImportedUsers(
      tx,
      projectId,
      batch.people.map((p) => p.person),
      now,
    );
    // The first line of an address in the batch is the one created; a later one is unchanged.
    const hashes: Array<{ userId: string; hash: string }> = [];
    const taken = new Set<string>();
    for (const { person } of batch.people) {
      const userId = created.get(person.email);
      if (userId === undefined || taken.has(person.email)) continue;
      taken.add(person.email);
      if (person.passwordHash !== null) hashes.push({ userId, hash: person.passwordHash });
    }
    await insertImportedPasswords(tx, projectId, hashes, new Date(now.getTime() + passwordDays * DAY_MS));
    await recordBatch(tx, {
      projectId,
      id,
      lines: batch.lines,
      imported: created.size,
      unchanged: batch.people.length - created.size,
      refusals: batch.refusals,
      now,
    });
  });
}

/** Reads the file to its end, a batch at a time; answers why it stopped early, or null. */
async function run(
  deps: ImportDeps,
  projectId: string,
  id: string,
  format: ImportFormat,
  stream: Readable,
  passwordDays: number,
): Promise<string | null> {
  let header: string[] | null = null;
  let batch = { lines: 0, people: [] as Array<{ line: number; person: ImportedPerson }>, refusals: [] as ImportRefusal[] };
  for await (const lines of linesOf(stream)) {
    for (const line of lines) {
      if (!line.tooLong && line.text.trim() === '') continue;
      if (format === 'csv' && header === null) {
        const names = line.tooLong ? null : csvFields(line.text);
        const known = names?.every((n) => HEADER_NAMES.has(n));
        if (!names || !known || !names.includes('email')) {
          return 'The first line of a CSV file is its header: email, and any of verified, name, externalId, passwordHash';
        }
        header = names;
        continue;
      }
      batch.lines += 1;
      const result = readLine(line, format === 'csv' ? header : null);
      if ('person' in result) batch.people.push(result);
      else batch.refusals.push(result);
      if (batch.lines >= IMPORT_BATCH) {
        await writeBatch(deps, projectId, id, batch, passwordDays);
        batch = { lines: 0, people: [], refusals: [] };
      }
    }
  }
  if (batch.lines > 0) await writeBatch(deps, projectId, id, batch, passwordDays);
  return null;
}

/**
 * Imports (issue 37, docs/decisions/0052): the file is read as it arrives, a batch at a time, each
 * batch one transaction with the project held open; its progress is written with it, so the job can
 * be followed from elsewhere. A line is taken whole or not at all.
 */
export function createUserImports(deps: ImportDeps) {
  const { db, clock, audit } = deps;
  return {
    /** Runs the import of `stream` to its end; answers the finished import (failed: what was written before stays). */
    async start(
      actor: Actor,
      projectId: string,
      upload: { type: string; stream: Readable },
      options: { format?: ImportFormat | undefined; passwordDays: number },
    ): Promise<UserImport> {
      const format: ImportFormat = options.format ?? (upload.type === 'text/csv' ? 'csv' : 'jsonl');
      const identityType = await identityTypeOf(db, projectId);
      if (identityType === null) throw notFound();
      if (identityType !== 'email') throw new DomainError('conflict', 'Only a project whose users sign in with an email address can import users');
      await db.transaction((tx) => lockOpenProject(tx, projectId));
      const id = randomToken(12);
      await insertImport(db, { projectId, id, format, startedBy: actor.accountId, now: clock.now() });
      let failure: string | null;
      try {
        failure = await run(deps, projectId, id, format, upload.stream, options.passwordDays);
      } catch (error) {
        // A cut upload, a closed project: the batches before stay written, the job says why it stopped.
        failure = error instanceof DomainError ? error.message : 'The upload stopped before the end of the file';
        if (!(error instanceof DomainError) && !isAbort(error)) throw error;
      } finally {
        // A body left unread (the CSV header refused) is drained, not left hanging.
        upload.stream.resume();
      }
      await finishImport(db, { projectId, id, failure, now: clock.now() });
      const done = (await findImport(db, projectId, id, clock.now())) as UserImport;
      await db.transaction((tx) =>
        audit(tx, {
          actor,
          action: 'user.import',
          result: failure === null ? 'success' : 'failed',
          projectId,
          details: { importId: id, lines: done.lines, imported: done.imported, unchanged: done.unchanged, refused: done.refused },
        }),
      );
      return done;
    },

    async list(projectId: string): Promise<{ items: UserImport[] }> {
      return { items: await latestImports(db, projectId, clock.now()) };
    },

    async get(projectId: string, id: string): Promise<UserImportReport> {
      const found = await findImport(db, projectId, id, clock.now());
      if (!found) throw notFound('No such import in this project');
      return { ...found, refusals: await refusalsOf(db, projectId, id) };
    },
  };
}

function isAbort(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || (error as Error | null)?.message === 'aborted';
}
