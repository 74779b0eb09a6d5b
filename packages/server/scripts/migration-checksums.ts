// The manifest of the landed migrations' checksums (docs/decisions/0041):
//
//   node packages/server/scripts/migration-checksums.ts            check the files against it
//   node packages/server/scripts/migration-checksums.ts --write    append the new migrations' lines
//
// --write only appends lines for files the manifest does not list; it never rewrites an entry, so an
// edited landed migration still fails the check (and test/migration-checksums.test.ts) until the file
// is restored. Both exit with 1 while a landed file is edited or removed.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { appendUnlisted, compareToManifest, MANIFEST_FILE, parseManifest } from '../src/db/migration-manifest.ts';
import { loadMigrations } from '../src/db/migrate.ts';

const write = process.argv.includes('--write');
const migrations = loadMigrations();
let text = existsSync(MANIFEST_FILE) ? readFileSync(MANIFEST_FILE, 'utf8') : '';
const where = relative(process.cwd(), MANIFEST_FILE);

if (write) {
  const appended = appendUnlisted(text, migrations);
  if (appended.added.length > 0) {
    writeFileSync(MANIFEST_FILE, appended.text);
    text = appended.text;
  }
  console.log(appended.added.length > 0 ? `${where}: added ${appended.added.join(', ')}` : `${where}: no new migration`);
}

const difference = compareToManifest(migrations, parseManifest(text));
for (const e of difference.edited) {
  console.error(`${e.file} was edited after it landed (landed sha256 ${e.landed}, now ${e.now}): restore it and put the change in a new migration`);
}
for (const file of difference.removed) console.error(`${file} landed and is gone: restore it`);
for (const file of difference.unlisted) console.error(`${file} is not in ${where}: run this script with --write`);
process.exitCode = difference.edited.length + difference.removed.length + difference.unlisted.length > 0 ? 1 : 0;
