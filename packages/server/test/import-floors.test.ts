import { join, resolve } from 'node:path';
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
