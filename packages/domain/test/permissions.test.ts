import { describe, expect, it } from 'vitest';
import { guards, hasAnyPermission, hasPermission, isGrantablePermission, projectOfPermission } from '../src/index.ts';

// spec §6: glb::* passes all; first two segments + ':*' pass; exact string passes; '<C>' is the current
// project; third segment '?' is passed by any held permission beginning with the first two segments.
describe('hasPermission (spec §6)', () => {
  const cases: Array<[string, string[], string, string | null, boolean]> = [
    ['global wildcard passes a project permission', ['glb::*'], 'cst:p1:apps', null, true],
    ['global wildcard passes a global permission', ['glb::*'], 'glb::projects', null, true],
    ['global wildcard passes a <C> permission with a project', ['glb::*'], 'cst:<C>:apps', 'p1', true],
    ['project wildcard passes a scope of that project', ['cst:p1:*'], 'cst:p1:apps', null, true],
    ['project wildcard does not pass another project', ['cst:p1:*'], 'cst:p2:apps', null, false],
    ['exact permission passes', ['cst:p1:apps'], 'cst:p1:apps', null, true],
    ['another scope does not pass', ['cst:p1:usage'], 'cst:p1:apps', null, false],
    ['same scope of another project does not pass', ['cst:p2:apps'], 'cst:p1:apps', null, false],
    ['<C> is replaced by the current project', ['cst:p1:apps'], 'cst:<C>:apps', 'p1', true],
    ['<C> with another current project fails', ['cst:p1:apps'], 'cst:<C>:apps', 'p2', false],
    ['<C> without a current project fails', ['cst:p1:apps'], 'cst:<C>:apps', null, false],
    ['<C> with project wildcard passes', ['cst:p1:*'], 'cst:<C>:accounts', 'p1', true],
    ['? passes with any scope of the project', ['cst:p1:usage'], 'cst:p1:?', null, true],
    ['? passes with the project wildcard', ['cst:p1:*'], 'cst:p1:?', null, true],
    ['? fails with another project only', ['cst:p2:usage'], 'cst:p1:?', null, false],
    ['? does not match a longer project id by prefix', ['cst:p10:usage'], 'cst:p1:?', null, false],
    ['glb::? passes with any global permission', ['glb::usage'], 'glb::?', null, true],
    ['glb::? fails with project permissions only', ['cst:p1:*'], 'glb::?', null, false],
    ['<C> and ? together', ['cst:p1:audit'], 'cst:<C>:?', 'p1', true],
    ['global scope exact passes', ['glb::projects'], 'glb::projects', null, true],
    ['global scope does not pass another global scope', ['glb::usage'], 'glb::projects', null, false],
    ['global project scope does not pass project permission', ['glb::apps'], 'cst:p1:apps', null, false],
    ['nothing held fails', [], 'cst:p1:apps', null, false],
    ['malformed asked permission fails', ['cst:p1:apps'], 'cst:p1', null, false],
    ['a literal * asked is passed only by the wildcard', ['cst:p1:apps'], 'cst:p1:*', null, false],
    ['a literal * asked passes with the wildcard held', ['cst:p1:*'], 'cst:p1:*', null, true],
  ];
  it.each(cases)('%s', (_name, held, asked, project, expected) => {
    expect(hasPermission(held, asked, project)).toBe(expected);
  });
});

describe('hasAnyPermission', () => {
  it('passes when one of the asked permissions passes', () => {
    expect(hasAnyPermission(['glb::apps'], guards.apps, 'p1')).toBe(true);
    expect(hasAnyPermission(['cst:p1:apps'], guards.apps, 'p1')).toBe(true);
  });
  it('fails when none passes', () => {
    expect(hasAnyPermission(['cst:p1:usage'], guards.apps, 'p1')).toBe(false);
  });
  it('an empty list passes', () => {
    expect(hasAnyPermission([], [], 'p1')).toBe(true);
  });
});

describe('page guards (spec §6)', () => {
  const cases: Array<[keyof typeof guards, string, boolean]> = [
    ['dashboard', 'cst:p1:usage', true],
    ['dashboard', 'cst:p1:apps', false],
    ['apps', 'cst:p1:apps', true],
    ['accounts', 'cst:p1:accounts', true],
    ['audit', 'cst:p1:audit', true],
    ['devices', 'cst:p1:revocation', true],
    ['devices', 'cst:p1:audit', false],
    ['projectAdmin', 'cst:p1:*', true],
    ['projectAdmin', 'cst:p1:info', false],
    ['projectMember', 'cst:p1:usage', true],
    ['projectMember', 'cst:p2:usage', false],
    ['globalUnlock', 'glb::usage', true],
    ['globalUnlock', 'cst:p1:*', false],
  ];
  it.each(cases)('%s with %s → %s', (guard, held, expected) => {
    expect(hasAnyPermission([held], guards[guard], 'p1')).toBe(expected);
  });
});

describe('permission catalogue', () => {
  it.each([
    ['glb::*', true],
    ['glb::accounts', true],
    ['glb::nope', false],
    ['cst:p1:*', true],
    ['cst:p1:revocation', true],
    ['cst:p1:nope', false],
    ['cst::apps', false],
    ['cst:p1', false],
    ['xyz:p1:apps', false],
  ])('%s grantable: %s', (permission, expected) => {
    expect(isGrantablePermission(permission)).toBe(expected);
  });
  it('finds the project of a permission', () => {
    expect(projectOfPermission('cst:p1:apps')).toBe('p1');
    expect(projectOfPermission('glb::apps')).toBeNull();
  });
});
