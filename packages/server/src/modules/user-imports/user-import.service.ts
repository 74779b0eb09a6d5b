import type { Readable } from 'node:stream';
import { DomainError, IMPORT_MESSAGES, IMPORTS_UNDER_WAY_MAX, type ImportFormat, type UserImport, type UserImportReport } from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import { randomToken } from '../../crypto.ts';
import type { Db } from '../../db/db.ts';
import { HttpDomainError, notFound } from '../../errors.ts';
import type { Actor } from '../../http/actor.ts';
import { identityTypeOf } from '../../people/end-users.repository.ts';
import { lockOpenProject } from '../../people/open-project.ts';
import type { AuditHook } from '../audit/audit.service.ts';
import { CSV_HEADER_MESSAGE, csvHeaderOf, isBlank, linesOf, type FileLine } from './import-lines.ts';
import { importEnded, IMPORT_LEASE_MS } from './import-worker.ts';
import {
  failImport,
  findImport,
  insertChunk,
  importsUnderWay,
  insertImport,
  latestImports,
  queueImport,
  refusalsOf,
  renewUpload,
  UPLOAD_CUT,
  type ImportActor,
} from './user-imports.repository.ts';

/** Lines a stored chunk holds at most: the worker writes a chunk in one transaction (as one batch of people). */
export const IMPORT_CHUNK_LINES = 1000;
/** Characters a stored chunk holds at most (1 Mi characters: 1 to 3 MiB of UTF-8): a chunk of long lines closes early. */
export const IMPORT_CHUNK_CHARS = 1024 * 1024;
/** How often, at most, a slow upload renews its lease between chunks (a chunk written renews it too). */
const RENEW_EVERY_MS = IMPORT_LEASE_MS / 4;

interface ImportDeps {
  db: Db;
  clock: Clock;
  audit: AuditHook;
  /** The largest file taken, in bytes (IMPORT_MAX_BYTES). */
  maxBytes: number;
  /** A job was queued and committed: a worker round now on this instance rather than at the next poll. */
  queued(): void;
}

/** The answer to a file over the bound: 413, with the bound in words. */
const tooLarge = (maxBytes: number) =>
  new HttpDomainError('validation_failed', `The file is larger than the ${maxBytes.toLocaleString('en')} bytes an import takes`, 413);

/** The upload's bytes, counted: past `maxBytes` it stops with 413; `onData` is told of each piece as it comes. */
async function* bounded(stream: Readable, maxBytes: number, onData: () => Promise<void>): AsyncGenerator<Buffer> {
  let bytes = 0;
  // Left early (too large, a bad header), the request stream is not destroyed under the answer: the
  // connection closes after it (register-endpoint.ts).
  for await (const piece of stream.iterator({ destroyOnReturn: false })) {
    const buffer = piece as Buffer;
    bytes += buffer.length;
    if (bytes > maxBytes) throw tooLarge(maxBytes);
    await onData();
    yield buffer;
  }
}

/**
 * The file's lines after its header as they arrive, stored a chunk at a time (IMPORT_CHUNK_LINES
 * lines, or fewer past IMPORT_CHUNK_CHARS), each chunk renewing the upload's lease (`renewed`);
 * `end` stores the last and answers the file's lines (blank ones not counted).
 */
function storedFile(db: Db, clock: Clock, job: { projectId: string; id: string }, renewed: () => void) {
  let seq = 0;
  let total = 0;
  let chunk = { firstLine: 0, texts: [] as string[], chars: 0, tooLong: [] as number[] };
  const store = async () => {
    if (chunk.texts.length === 0) return;
    const now = clock.now();
    seq += 1;
    const body = chunk.texts.join('\n');
    const stored = await insertChunk(db, { ...job, seq, firstLine: chunk.firstLine, body, tooLong: chunk.tooLong, now, leaseUntil: leaseFrom(now) });
    if (!stored) throw new UploadLost();
    renewed();
    chunk = { firstLine: 0, texts: [], chars: 0, tooLong: [] };
  };
  return {
    async add(line: FileLine): Promise<void> {
      // A text file has no NUL (PostgreSQL's text cannot hold one): the file is refused, nothing of it imported.
      if (line.text.includes('\u0000')) throw new DomainError('validation_failed', IMPORT_MESSAGES.nulCharacter(line.number));
      if (chunk.texts.length === 0) chunk.firstLine = line.number;
      chunk.texts.push(line.text);
      chunk.chars += line.text.length;
      if (line.tooLong) chunk.tooLong.push(line.number);
      if (!isBlank(line)) total += 1;
      if (chunk.texts.length >= IMPORT_CHUNK_LINES || chunk.chars >= IMPORT_CHUNK_CHARS) await store();
    },
    async end(): Promise<number> {
      await store();
      return total;
    },
  };
}

const leaseFrom = (now: Date) => new Date(now.getTime() + IMPORT_LEASE_MS);

/** The upload stopped being this job's: its lease ran out (the worker failed it) before the file was stored. */
class UploadLost extends Error {}

/**
 * Imports (issue 37, docs/decisions/0052): the upload only stores the file, in chunks of about a
 * thousand lines, as it arrives (memory holds one chunk), and answers the queued job; a worker on
 * any instance (import-worker.ts) imports it a chunk at a time. A cut upload imports nothing.
 */
export function createUserImports(deps: ImportDeps) {
  const { db, clock, audit, maxBytes } = deps;

  /** Ends a job whose file was not stored whole: failed, its chunks deleted, its audit event written. */
  async function failUpload(job: { projectId: string; id: string; actor: ImportActor }, failure: string): Promise<void> {
    await db.transaction(async (tx) => {
      // Only while it is still uploading: a lease that ran out has already failed it (and said so).
      if (!(await renewUpload(tx, { projectId: job.projectId, id: job.id, now: clock.now(), leaseUntil: clock.now() }))) return;
      await failImport(tx, { projectId: job.projectId, id: job.id, failure, now: clock.now() });
      await importEnded(tx, audit, job, 'failed');
    });
  }

  return {
    /**
     * Stores the file and answers its job, queued (or already running): at most `maxBytes` (413
     * beyond, before reading when Content-Length says so); a CSV file's header is read first (400
     * when it is not one, nothing stored).
     */
    async start(
      actor: Actor,
      projectId: string,
      upload: { type: string; stream: Readable; length: number | null },
      options: { format?: ImportFormat | undefined },
    ): Promise<UserImport> {
      const format: ImportFormat = options.format ?? (upload.type === 'text/csv' ? 'csv' : 'jsonl');
      const identityType = await identityTypeOf(db, projectId);
      if (identityType === null) throw notFound();
      if (identityType !== 'email') throw new DomainError('conflict', 'Only a project whose users sign in with an email address can import users');
      await db.transaction((tx) => lockOpenProject(tx, projectId));
      if (upload.length !== null && upload.length > maxBytes) throw tooLarge(maxBytes);
      // Each stores up to maxBytes until it is imported: a project holds a few at once, not any number.
      if ((await importsUnderWay(db, projectId)) >= IMPORTS_UNDER_WAY_MAX) {
        throw new DomainError('conflict', IMPORT_MESSAGES.tooManyUnderWay);
      }

      const { permissions: _, ...who } = actor;
      const job = { projectId, id: randomToken(12), actor: who };
      let created = false;
      let renewedAt = clock.now().getTime();
      const file = storedFile(db, clock, job, () => (renewedAt = clock.now().getTime()));
      const create = async (csvHeader: string[] | null) => {
        const now = clock.now();
        await insertImport(db, { ...job, format, csvHeader, now, leaseUntil: leaseFrom(now) });
        created = true;
        renewedAt = now.getTime();
      };
      // A slow sender keeps its lease while bytes arrive, not only when a chunk is full.
      const onData = async () => {
        const now = clock.now();
        if (!created || now.getTime() - renewedAt < RENEW_EVERY_MS) return;
        renewedAt = now.getTime();
        if (!(await renewUpload(db, { projectId, id: job.id, now, leaseUntil: leaseFrom(now) }))) throw new UploadLost();
      };

      try {
        if (format === 'jsonl') await create(null);
        let header = format === 'jsonl';
        for await (const lines of linesOf(bounded(upload.stream, maxBytes, onData))) {
          for (const line of lines) {
            if (!header) {
              // A CSV file's first line that is not blank is its header, kept on the job for the worker.
              if (isBlank(line)) continue;
              const names = csvHeaderOf(line);
              if (!names) throw new DomainError('validation_failed', CSV_HEADER_MESSAGE);
              await create(names);
              header = true;
              continue;
            }
            await file.add(line);
          }
        }
        if (!header) throw new DomainError('validation_failed', CSV_HEADER_MESSAGE);
        const total = await file.end();
        if (!(await queueImport(db, { projectId, id: job.id, total, now: clock.now() }))) throw new UploadLost();
      } catch (error) {
        if (created) await failUpload(job, error instanceof DomainError ? error.message : UPLOAD_CUT);
        // The client went away: its job says why, and no one waits for an answer.
        if (isAbort(error)) {
          const found = created ? await findImport(db, projectId, job.id) : null;
          if (found) return found;
          throw new DomainError('validation_failed', UPLOAD_CUT);
        }
        if (error instanceof UploadLost) {
          throw new DomainError(
            'conflict',
            `The upload paused for more than ${IMPORT_LEASE_MS / 1000} s and was stopped; nothing of it was imported`,
          );
        }
        throw error;
      }
      deps.queued();
      return (await findImport(db, projectId, job.id)) as UserImport;
    },

    async list(projectId: string): Promise<{ items: UserImport[] }> {
      return { items: await latestImports(db, projectId) };
    },

    async get(projectId: string, id: string): Promise<UserImportReport> {
      const found = await findImport(db, projectId, id);
      if (!found) throw notFound('No such import in this project');
      return { ...found, refusals: await refusalsOf(db, projectId, id) };
    },
  };
}

function isAbort(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || (error as Error | null)?.message === 'aborted';
}
