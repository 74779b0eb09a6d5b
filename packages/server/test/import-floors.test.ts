import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import layers from '../../../tools/eslint/import-direction.js';

// Issue 35: the server's floors are kept by `npm run lint` (tools/eslint/import-direction.js). The
// codebase passing lint shows no import runs back up today; this shows the rule would say so.

const src = resolve(import.meta.dirname, '../src');
const linter = new Linter({ configType: 'flat' });
const config = [
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser },
    plugins: { layers },
    rules: { 'layers/import-direction': 'error' as const },
  },
];

/** The rule's messages for a file at `path` (under packages/server/src) holding one import of `source`. */
function refusals(path: string, source: string): string[] {
  const code = `import { x } from '${source}';\nexport const y = x;\n`;
  return linter.verify(code, config, { filename: join(src, path) }).map((m) => m.message);
}

describe('the server floors (ground → db → http → events → outbox → oidc → people → issuer → account → idp → modules → app.ts)', () => {
  it.each([
    ['db/list-kit.ts', '../modules/apps/apps.repository.ts', 'server/src/db may not import from server/src/modules'],
    ['http/metrics.ts', '../events/end-user-event.ts', 'server/src/http may not import from server/src/events'],
    ['oidc/passkeys.ts', '../people/devices.repository.ts', 'server/src/oidc may not import from server/src/people'],
    ['people/revocation.ts', '../issuer/verification.ts', 'server/src/people may not import from server/src/issuer'],
    ['issuer/verification.ts', '../account/account-flow.ts', 'server/src/issuer may not import from server/src/account'],
    ['account/account-changes.ts', '../modules/projects/projects.repository.ts', 'server/src/account may not import from server/src/modules'],
    ['log.ts', './http/outgoing.ts', 'server/src/ground may not import from server/src/http'],
    ['mail/mailer.ts', '../db/db.ts', 'server/src/ground may not import from server/src/db'],
    ['modules/apps/apps.service.ts', '../../app.ts', 'server/src/modules may not import from server/src/root'],
  ])('refuses %s importing %s', (file, source, reason) => {
    expect(refusals(file, source)).toEqual([expect.stringContaining(reason)]);
  });

  it.each([
    ['modules/end-users/end-users.service.ts', '../../people/revocation.ts'],
    ['account/account-changes.ts', '../people/revocation.ts'],
    ['people/revocation.ts', '../oidc/payloads.repository.ts'],
    ['events/project-events.ts', '../http/metrics.ts'],
    ['modules/apps/apps.service.ts', '../devices/devices.service.ts'],
    ['app.ts', './modules/apps/apps.service.ts'],
    ['log.ts', './networks.ts'],
  ])('lets %s import %s (its own floor or lower)', (file, source) => {
    expect(refusals(file, source)).toEqual([]);
  });
});

/** Every .ts file under `dir` and the files of this tree each one imports (relative imports, types too). */
function importGraph(dir: string): Map<string, string[]> {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(dir, f));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+\.ts)'/g)].map((m) => resolve(dirname(file), m[1] ?? ''));
    graph.set(
      file,
      targets.filter((t) => t.startsWith(dir)),
    );
  }
  return graph;
}

/** The first cycle found in the graph, as the files around it, or null. */
function firstCycle(graph: Map<string, string[]>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string): string[] | null => {
    if (state.get(file) === 'done') return null;
    if (state.get(file) === 'open') return [...path.slice(path.indexOf(file)), file];
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(file, 'done');
    return null;
  };
  for (const file of graph.keys()) {
    const cycle = visit(file);
    if (cycle) return cycle;
  }
  return null;
}

describe('the server imports', () => {
  it('run in no circle (issue 35): no file reaches itself through what it imports', () => {
    const graph = importGraph(src);
    expect(graph.size).toBeGreaterThan(100);
    expect(firstCycle(graph)?.map((f) => relative(src, f)) ?? null).toBeNull();
  });

  it('would name a circle if there were one', () => {
    const a = join(src, 'a.ts');
    const b = join(src, 'b.ts');
    expect(
      firstCycle(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
      )?.map((f) => relative(src, f)),
    ).toEqual(['a.ts', 'b.ts', 'a.ts']);
  });
});
