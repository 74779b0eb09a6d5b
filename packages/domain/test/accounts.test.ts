import { describe, expect, it } from 'vitest';
import {
  accountUpdateSchema,
  administersProject,
  foreignPermissions,
  normalizePermissions,
  serviceAccountCreateSchema,
  staffAccountCreateSchema,
  ungrantablePermissions,
} from '../src/index.ts';

// spec §5 (the parent/child rule, the account forms' rules), §6, issue 12 (no escalation).

describe('a parent stands for its children (spec §5)', () => {
  it.each<[string[], string[]]>([
    [['cst:p:apps', 'cst:p:*', 'cst:p:usage'], ['cst:p:*']],
    [
      ['cst:p:usage', 'cst:p:apps', 'cst:p:apps'],
      ['cst:p:apps', 'cst:p:usage'],
    ],
    [
      ['glb::usage', 'glb::*', 'cst:p:audit'],
      ['cst:p:audit', 'glb::*'],
    ],
    [
      ['cst:p:*', 'cst:q:apps'],
      ['cst:p:*', 'cst:q:apps'],
    ],
  ])('%j → %j', (given, kept) => {
    expect(normalizePermissions(given)).toEqual(kept);
  });
});

describe('no one grants or takes away what they do not hold (issue 12)', () => {
  it.each<[string, string[], string[], string[]]>([
    ['the project wildcard covers its children', ['cst:p:*'], ['cst:p:apps', 'cst:p:*'], []],
    ['one scope grants only itself', ['cst:p:accounts'], ['cst:p:accounts', 'cst:p:apps'], ['cst:p:apps']],
    ['a project’s permission does not cover another’s', ['cst:p:*'], ['cst:q:usage'], ['cst:q:usage']],
    ['a project admin grants no global permission', ['cst:p:*'], ['glb::usage', 'glb::*'], ['glb::usage', 'glb::*']],
    ['glb::* grants anything', ['glb::*'], ['glb::*', 'cst:q:*', 'glb::projects'], []],
    ['glb::projects is not glb::*', ['glb::projects'], ['glb::usage'], ['glb::usage']],
    ['"?" is asked, never granted', ['cst:p:usage'], ['cst:p:?'], ['cst:p:?']],
  ])('%s', (_, held, granted, refused) => {
    expect(ungrantablePermissions(held, granted)).toEqual(refused);
  });

  it('knows who administers a project: select all on it, glb::projects or glb::*', () => {
    expect(administersProject(['cst:p:*'], 'p')).toBe(true);
    expect(administersProject(['glb::projects'], 'p')).toBe(true);
    expect(administersProject(['glb::*'], 'p')).toBe(true);
    expect(administersProject(['cst:p:accounts', 'cst:q:*'], 'p')).toBe(false);
  });

  it("keeps a project's form to its own and global permissions", () => {
    expect(foreignPermissions(['cst:p:apps', 'glb::usage', 'cst:q:apps', 'cst:p:root', 'nonsense'], 'p')).toEqual([
      'cst:q:apps',
      'cst:p:root',
      'nonsense',
    ]);
  });
});

describe('the account forms (spec §5)', () => {
  const issues = (r: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
    r.error?.issues.map((i) => [i.path.join('.'), i.message]) ?? [];

  it.each<[string, Record<string, unknown>, Array<[string, string]>]>([
    ['a valid staff account', { email: ' Ann@Example.com ', permissions: ['cst:p:usage'] }, []],
    [
      'no email',
      { email: '', permissions: ['cst:p:usage'] },
      [
        ['email', 'validation.required'],
        ['email', 'validation.invalid_email'],
      ],
    ],
    ['an invalid email', { email: 'ann', permissions: ['cst:p:usage'] }, [['email', 'validation.invalid_email']]],
    ['no permission', { email: 'ann@example.com', permissions: [] }, [['permissions', 'validation.at_least_one_permission']]],
    ['a permission not in the catalogue', { email: 'ann@example.com', permissions: ['cst:p:root'] }, [['permissions.0', 'validation.invalid_value']]],
  ])('staff: %s', (_, body, expected) => {
    expect(issues(staffAccountCreateSchema.safeParse(body))).toEqual(expected);
  });

  it.each<[string, Record<string, unknown>, Array<[string, string]>]>([
    ['a valid service account', { name: 'CI', permissions: ['cst:p:apps'] }, []],
    ['no name', { name: '  ', permissions: ['cst:p:apps'] }, [['name', 'validation.required']]],
    ['a 251-character name', { name: 'n'.repeat(251), permissions: ['cst:p:apps'] }, [['name', 'validation.max_length']]],
    ['an expiry that is no time', { name: 'CI', permissions: ['cst:p:apps'], expiresAt: 'soon' }, [['expiresAt', 'validation.invalid_date']]],
  ])('service: %s', (_, body, expected) => {
    expect(issues(serviceAccountCreateSchema.safeParse(body))).toEqual(expected);
  });

  it('an update names permissions and status; the email is not part of it', () => {
    expect(accountUpdateSchema.safeParse({ permissions: ['cst:p:usage'], active: false }).success).toBe(true);
    expect(issues(accountUpdateSchema.safeParse({ permissions: ['cst:p:usage'] }))).toEqual([['active', 'validation.invalid_value']]);
  });
});
