import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// Issue 7: whether a page is styled must not depend on someone remembering an import. This walks
// the kit's own modules from every component the console (and the kit's notifications package)
// imports, collects the stylesheet each one's class names come from, and checks mantine-styles.ts
// imports every one of them.
const root = resolve(import.meta.dirname, '../../../..');
const coreEsm = join(root, 'node_modules/@mantine/core/esm');
const stylesFile = join(import.meta.dirname, 'mantine-styles.ts');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mjs)$/.test(name) && !/\.test\./.test(name) ? [path] : [];
  });
}

/** The names a file imports (values, not types) from `pkg`. */
function namedImports(source: string, pkg: string): string[] {
  const names: string[] = [];
  const quoted = pkg.replace('/', '\\/');
  for (const m of source.matchAll(new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*['"]${quoted}['"]`, 'g'))) {
    for (const part of (m[1] ?? '').split(',')) {
      const name = part.trim();
      if (name && !name.startsWith('type ')) names.push((name.split(' as ')[0] ?? '').trim());
    }
  }
  return names;
}

/** Where each export of the kit's index lives. */
function exportModules(): Map<string, string> {
  const index = readFileSync(join(coreEsm, 'index.mjs'), 'utf8');
  const where = new Map<string, string>();
  for (const m of index.matchAll(/import \{([^}]*)\} from "(\.[^"]+)";/g)) {
    for (const part of (m[1] ?? '').split(',')) where.set((part.trim().split(' as ').pop() ?? '').trim(), resolve(coreEsm, m[2] ?? ''));
  }
  return where;
}

/** The stylesheets (by component name) the modules reachable from `file` take class names from. */
function stylesheetsFrom(file: string, seen: Set<string>, found: Set<string>): void {
  if (seen.has(file)) return;
  seen.add(file);
  for (const m of readFileSync(file, 'utf8').matchAll(/from "(\.[^"]+)"/g)) {
    const target = resolve(dirname(file), m[1] ?? '');
    if (target.endsWith('.module.mjs')) found.add(basename(target, '.module.mjs'));
    else stylesheetsFrom(target, seen, found);
  }
}

function needed(): string[] {
  const used = new Set<string>();
  for (const file of sourceFiles(join(root, 'packages/console/src')))
    for (const n of namedImports(readFileSync(file, 'utf8'), '@mantine/core')) used.add(n);
  for (const file of sourceFiles(join(root, 'node_modules/@mantine/notifications/esm'))) {
    for (const n of namedImports(readFileSync(file, 'utf8'), '@mantine/core')) used.add(n);
  }
  const where = exportModules();
  const seen = new Set<string>();
  const found = new Set<string>();
  for (const name of used) {
    const module = where.get(name);
    if (module) stylesheetsFrom(module, seen, found);
  }
  return [...found].sort();
}

function imported(): string[] {
  const source = readFileSync(stylesFile, 'utf8');
  return [...source.matchAll(/import '@mantine\/core\/styles\/([\w-]+)\.layer\.css';/g)].map((m) => m[1] ?? '');
}

describe('the UI kit styles (mantine-styles.ts)', () => {
  it('imports the stylesheet of every component the console uses, and of the components those use', () => {
    const missing = needed().filter((name) => !imported().includes(name));
    expect(missing, `add to mantine-styles.ts: ${missing.map((n) => `import '@mantine/core/styles/${n}.layer.css';`).join(' ')}`).toEqual([]);
  });

  it('imports no stylesheet that no component the console uses needs (they are all in the first download)', () => {
    const global = ['baseline', 'default-css-variables', 'global'];
    expect(imported().filter((name) => !global.includes(name) && !needed().includes(name))).toEqual([]);
  });

  it('imports only stylesheets that exist, with the global ones first', () => {
    const lines = readFileSync(stylesFile, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith("import '@mantine/core/"));
    expect(lines).toHaveLength(imported().length);
    for (const name of imported()) expect(existsSync(join(root, `node_modules/@mantine/core/styles/${name}.layer.css`)), name).toBe(true);
    expect(imported().slice(0, 3)).toEqual(['baseline', 'default-css-variables', 'global']);
  });

  it("imports them in the kit's own order, so a composite's rules come after those of the parts it overrides", () => {
    // Each stylesheet's rules sit in the kit's whole stylesheet in its intended order; within the
    // `mantine` layer a later rule wins a tie (Button must follow UnstyledButton).
    const whole = readFileSync(join(root, 'node_modules/@mantine/core/styles.layer.css'), 'utf8');
    const positions = imported().map((name) => {
      const own = readFileSync(join(root, `node_modules/@mantine/core/styles/${name}.layer.css`), 'utf8');
      const start = own
        .replace(/^@layer mantine\s*\{/, '')
        .trim()
        .slice(0, 60);
      return { name, at: whole.indexOf(start) };
    });
    expect(positions.filter((p) => p.at < 0)).toEqual([]);
    expect(positions.map((p) => p.name)).toEqual([...positions].sort((a, b) => a.at - b.at).map((p) => p.name));
  });

  it('finds what a component needs through the components it is made of (TextInput → Input)', () => {
    const found = new Set<string>();
    stylesheetsFrom(exportModules().get('TextInput') as string, new Set(), found);
    expect([...found]).toContain('Input');
  });
});
