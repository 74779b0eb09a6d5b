import { describe, expect, it } from 'vitest';
import { resolveReturnTarget } from './resolve-return-target.ts';

describe('resolveReturnTarget (spec §2: only named routes)', () => {
  it.each([
    ['/', '/'],
    ['/project/create', '/project/create'],
    ['/project/p1/dashboard', '/project/p1/dashboard'],
    ['/project/p1/app/a9/settings?tab=keys#top', '/project/p1/app/a9/settings?tab=keys#top'],
    ['/project/p1/serviceaccount/create', '/project/p1/serviceaccount/create'],
    ['/forbidden', '/forbidden'],
  ])('accepts %s', (next, expected) => {
    expect(resolveReturnTarget(next)).toBe(expected);
  });

  it.each([
    [null],
    [''],
    ['https://evil.example/'],
    ['//evil.example/project/p1/dashboard'],
    ['/\\evil.example'],
    ['javascript:alert(1)'],
    ['project/p1/dashboard'],
    ['/no/such/page'],
    ['/project/p1'],
    ['/project/p1/dashboard/extra'],
    ['/login'],
    ['/login/error?error=x'],
  ])('refuses %s', (next) => {
    expect(resolveReturnTarget(next)).toBeNull();
  });
});
