import { z } from 'zod';
import { isCleanText, isEmail } from '../validation/fields.ts';
import { TEXT_MAX_LENGTH } from '../constants.ts';

/**
 * Issue 37 "Migration" (docs/decisions/0052): a project's users brought in from a file and taken
 * out in the same format. One person a line: JSON Lines (one object a line) or CSV (a header row
 * naming the same fields, RFC 4180 quoting, no line break inside a field).
 *
 *   {"email":"ana@example.com","verified":true,"name":"Ana","externalId":"u-17","passwordHash":"$2b$10$…"}
 *
 * An export line adds what the import leaves alone: `id`, `createdAt` and `passkeys` (public data).
 */
export const IMPORT_FORMATS = { jsonl: 'application/x-ndjson', csv: 'text/csv' } as const;
export type ImportFormat = keyof typeof IMPORT_FORMATS;

/** The fields a line may hold (CSV: the header's names). */
export const IMPORT_FIELDS = ['email', 'verified', 'name', 'externalId', 'passwordHash'] as const;
/** An export's fields the import reads past, so an export can be imported elsewhere as it is. */
export const EXPORT_ONLY_FIELDS = ['id', 'createdAt', 'passkeys'] as const;

/** A line longer than this is refused unread (no person's line needs more). */
export const IMPORT_LINE_MAX_BYTES = 8 * 1024;
export const EXTERNAL_ID_MAX_LENGTH = 200;
/** The longest password hash taken (any of the formats, with its parameters and salt). */
export const PASSWORD_HASH_MAX_LENGTH = 512;
/**
 * The largest file an import takes (docs/decisions/0052): the upload is stored in the database until
 * it is imported, so its size is bounded (413 beyond; IMPORT_MAX_BYTES may lower it). A million
 * people with hashes is about 150 MB.
 */
export const IMPORT_FILE_MAX_BYTES = 1024 * 1024 * 1024;
/** Imports under way at once in a project: each stores up to its file's size until it is imported (409 beyond). */
export const IMPORTS_UNDER_WAY_MAX = 3;

/** What the import says of a whole file or job (the lines' own refusals are `importedPerson`'s). */
export const IMPORT_MESSAGES = {
  tooManyUnderWay: `At most ${IMPORTS_UNDER_WAY_MAX} imports may be under way in a project at once: wait for one to end`,
  /** A text file holds no NUL (PostgreSQL's text cannot either): the file is refused, nothing of it imported. */
  nulCharacter: (line: number) => `Line ${line} holds a NUL character: the file is not text`,
  /** A part of the file failed to be written, again and again, for a reason that is not the project's. */
  chunkFailed: (code: string) => `The import stopped: a part of the file could not be written (${code}); the lines before it stay imported`,
} as const;

export const IMPORT_REFUSAL_REASONS = [
  'line_too_long',
  'not_json',
  'not_an_object',
  'csv_columns',
  'csv_quotes',
  'unknown_field',
  'email_missing',
  'email_invalid',
  'verified_invalid',
  'name_invalid',
  'external_id_invalid',
  'password_hash_invalid',
  'password_hash_unknown',
  'password_hash_parameters',
  'argon2_unavailable',
] as const;
export type ImportRefusalReason = (typeof IMPORT_REFUSAL_REASONS)[number];

/** A line taken: what is stored of it (the hash is checked by the server, which knows the algorithms). */
export interface ImportedPerson {
  email: string;
  verified: boolean;
  name: string | null;
  externalId: string | null;
  passwordHash: string | null;
}
export type LineRefusal = { reason: ImportRefusalReason; message: string };

const refuse = (reason: ImportRefusalReason, message: string): LineRefusal => ({ reason, message });

/** A line's fields (already read from JSON or CSV) as a person, or why the line is refused. */
export function importedPerson(fields: Record<string, unknown>): ImportedPerson | LineRefusal {
  for (const key of Object.keys(fields)) {
    if (!(IMPORT_FIELDS as readonly string[]).includes(key) && !(EXPORT_ONLY_FIELDS as readonly string[]).includes(key)) {
      // Quoted as JSON: a name read from the file may hold any character (a NUL included).
      return refuse('unknown_field', `Unknown field ${JSON.stringify(key.slice(0, 40))} (fields: ${IMPORT_FIELDS.join(', ')})`);
    }
  }
  const { email, verified, name, externalId, passwordHash } = fields;
  if (email === undefined || email === null || email === '') return refuse('email_missing', 'The email address is missing');
  if (typeof email !== 'string') return refuse('email_invalid', 'The email address is not text');
  const address = email.trim().toLowerCase();
  if (address.length > TEXT_MAX_LENGTH || !isEmail(address)) return refuse('email_invalid', 'The email address is not valid');
  const isVerified = verified === undefined || verified === null || verified === '' ? false : verified;
  const verifiedValue = isVerified === 'true' ? true : isVerified === 'false' ? false : isVerified;
  if (typeof verifiedValue !== 'boolean') return refuse('verified_invalid', '"verified" is true or false');
  const text = (value: unknown, max: number): string | null | undefined =>
    value === undefined || value === null || value === ''
      ? null
      : typeof value === 'string' && value.length <= max && isCleanText(value)
        ? value
        : undefined;
  const nameValue = text(name, TEXT_MAX_LENGTH);
  if (nameValue === undefined) return refuse('name_invalid', `The name is text of at most ${TEXT_MAX_LENGTH} characters, without control characters`);
  const externalValue = text(externalId, EXTERNAL_ID_MAX_LENGTH);
  if (externalValue === undefined) {
    return refuse('external_id_invalid', `The external id is text of at most ${EXTERNAL_ID_MAX_LENGTH} characters, without control characters`);
  }
  const hashValue = text(passwordHash, PASSWORD_HASH_MAX_LENGTH);
  if (hashValue === undefined) return refuse('password_hash_invalid', `The password hash is text of at most ${PASSWORD_HASH_MAX_LENGTH} characters`);
  return { email: address, verified: verifiedValue, name: nameValue, externalId: externalValue, passwordHash: hashValue };
}

export const isLineRefusal = (value: ImportedPerson | LineRefusal): value is LineRefusal => 'reason' in value;

/**
 * An import's course: the file is being stored (`uploading`), stored and waiting for a worker
 * (`queued`), being imported a chunk at a time (`running`), then `done` or `failed`.
 */
export const USER_IMPORT_STATUSES = ['uploading', 'queued', 'running', 'done', 'failed'] as const;
export type UserImportStatus = (typeof USER_IMPORT_STATUSES)[number];
/** Statuses of an import not finished yet: the Users page reads its progress again while one is. */
export const isImportUnderWay = (status: UserImportStatus): boolean => status !== 'done' && status !== 'failed';

/** An import: its progress while it runs, its counts once done. */
export const userImportSchema = z.object({
  id: z.string(),
  format: z.enum(['jsonl', 'csv']),
  status: z.enum(USER_IMPORT_STATUSES),
  /** Lines imported so far, blank ones and a CSV's header not counted. */
  lines: z.number().int(),
  /** The file's lines (counted as `lines`), known once it is stored whole; null while it is uploading or when it never was. */
  total: z.number().int().nullable(),
  /** People created. */
  imported: z.number().int(),
  /** Lines naming a person the project has already (an import run twice changes nothing). */
  unchanged: z.number().int(),
  refused: z.number().int(),
  /** Why a failed import stopped (the upload was cut: nothing of it imported; the project closed meanwhile: the chunks before stay). */
  failure: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type UserImport = z.infer<typeof userImportSchema>;

export const importRefusalSchema = z.object({ line: z.number().int(), reason: z.enum(IMPORT_REFUSAL_REASONS), message: z.string() });
export type ImportRefusal = z.infer<typeof importRefusalSchema>;

/** An import with its report: the refused lines, in line order (the first 10 000). */
export const userImportReportSchema = userImportSchema.extend({ refusals: z.array(importRefusalSchema) });
export type UserImportReport = z.infer<typeof userImportReportSchema>;
export const userImportListSchema = z.object({ items: z.array(userImportSchema) });

/** The file's format when its media type does not say it; an imported hash's days are the project's setting (importedPasswordDays). */
export const userImportQuerySchema = z.object({
  format: z.enum(['jsonl', 'csv']).optional(),
});
