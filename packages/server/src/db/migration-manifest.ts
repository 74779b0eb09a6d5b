import { join } from 'node:path';
import { checksumOf, MIGRATIONS_DIR, type Migration } from './migrate.ts';

/**
 * The committed checksums of the landed migrations (docs/decisions/0041), one line a file in
 * `sha256sum`'s format, so `sha256sum -c checksums.sha256` in the folder checks them too. Only ever
 * appended to: an entry is the file as it landed, and a test compares the files to it.
 */
export const MANIFEST_FILE = join(MIGRATIONS_DIR, 'checksums.sha256');

/** What a contributor runs after adding a migration: it appends the new files' lines, nothing else. */
export const APPEND_COMMAND = 'node packages/server/scripts/migration-checksums.ts --write';

const LINE = /^([0-9a-f]{64}) [ *](\d{4}_[a-z0-9_]+\.sql)$/;

/** File name → checksum; a line that is not `<sha256>  <file>` is an error, not skipped. */
export function parseManifest(text: string): Map<string, string> {
  const entries = new Map<string, string>();
  text
    .split('\n')
    .filter((line) => line !== '')
    .forEach((line, at) => {
      const match = LINE.exec(line);
      if (!match?.[1] || !match[2]) throw new Error(`${MANIFEST_FILE}:${at + 1}: not "<sha256>  <NNNN_name.sql>": ${line}`);
      if (entries.has(match[2])) throw new Error(`${MANIFEST_FILE}:${at + 1}: ${match[2]} is listed twice`);
      entries.set(match[2], match[1]);
    });
  return entries;
}

export interface ManifestDifference {
  /** Listed, and the file is no longer the text that landed. */
  edited: Array<{ file: string; landed: string; now: string }>;
  /** Files the manifest does not list yet: new migrations. */
  unlisted: string[];
  /** Listed, and no such file any more. */
  removed: string[];
}

export function compareToManifest(migrations: readonly Migration[], manifest: ReadonlyMap<string, string>): ManifestDifference {
  const files = new Map(migrations.map((m) => [`${m.version}.sql`, checksumOf(m.sql)]));
  return {
    edited: [...manifest].flatMap(([file, landed]) => {
      const now = files.get(file);
      return now !== undefined && now !== landed ? [{ file, landed, now }] : [];
    }),
    unlisted: [...files.keys()].filter((file) => !manifest.has(file)),
    removed: [...manifest.keys()].filter((file) => !files.has(file)),
  };
}

/**
 * The manifest with a line for each migration it does not list yet, appended in order; every
 * existing line is kept byte for byte, an edited file's included (the test keeps failing on it).
 */
export function appendUnlisted(text: string, migrations: readonly Migration[]): { text: string; added: string[] } {
  const listed = parseManifest(text);
  const added = migrations.filter((m) => !listed.has(`${m.version}.sql`));
  const lines = added.map((m) => `${checksumOf(m.sql)}  ${m.version}.sql\n`).join('');
  const kept = text === '' || text.endsWith('\n') ? text : `${text}\n`;
  return { text: kept + lines, added: added.map((m) => `${m.version}.sql`) };
}
