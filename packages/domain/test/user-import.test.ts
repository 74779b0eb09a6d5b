import { describe, expect, it } from 'vitest';
import { importedPerson, isLineRefusal, type ImportRefusalReason } from '../src/index.ts';

// Issue 37 "Migration" (docs/decisions/0052): what a line of an import file becomes.

describe('an import line', () => {
  it.each<[string, Record<string, unknown>, ImportRefusalReason]>([
    ['no address', { verified: true }, 'email_missing'],
    ['an empty address', { email: '' }, 'email_missing'],
    ['an address that is not text', { email: 17 }, 'email_invalid'],
    ['not an address', { email: 'ana at example.com' }, 'email_invalid'],
    ['verified neither true nor false', { email: 'a@example.com', verified: 'yes' }, 'verified_invalid'],
    ['a name with a control character', { email: 'a@example.com', name: 'A\u0007' }, 'name_invalid'],
    ['a name that is not text', { email: 'a@example.com', name: 3 }, 'name_invalid'],
    ['an external id too long', { email: 'a@example.com', externalId: 'x'.repeat(201) }, 'external_id_invalid'],
    ['a hash that is not text', { email: 'a@example.com', passwordHash: 12 }, 'password_hash_invalid'],
    ['an unknown field (a typo)', { email: 'a@example.com', pasword: 'x' }, 'unknown_field'],
  ])('is refused for %s', (_name, fields, reason) => {
    const read = importedPerson(fields);
    expect(isLineRefusal(read) ? read.reason : null).toBe(reason);
  });

  it('is a person: the address lower-cased, verified from true/false or "true"/"false" (CSV), absent fields null', () => {
    expect(importedPerson({ email: ' Ana@Example.COM ', verified: 'true' })).toEqual({
      email: 'ana@example.com',
      verified: true,
      name: null,
      externalId: null,
      passwordHash: null,
    });
    expect(importedPerson({ email: 'b@example.com', verified: false, name: 'B', externalId: '', passwordHash: '$2b$…' })).toMatchObject({
      verified: false,
      name: 'B',
      externalId: null,
      passwordHash: '$2b$…',
    });
  });

  it("reads past an export's own fields, so an export imports as it is", () => {
    expect(isLineRefusal(importedPerson({ id: 'u1', email: 'c@example.com', createdAt: '2026-01-01T00:00:00Z', passkeys: [] }))).toBe(false);
  });
});
