import { describe, expect, it } from 'vitest';
import { isSafeNextPath, normaliseNextPath } from '../src/index.ts';

// spec §7 "state_next": only a path of the console's own origin, as a browser would read it.
const accepted: Array<[string, string]> = [
  ['/', '/'],
  ['/project/abc/settings', '/project/abc/settings'],
  ['/project/abc/apps?sort=name#top', '/project/abc/apps?sort=name#top'],
  ['/a/../b', '/b'],
  ['/a/./b', '/a/b'],
  ['/caf\u00e9', '/caf%C3%A9'],
  ['/a b', '/a%20b'],
];

const refused: Array<[string, string]> = [
  ['', 'empty'],
  ['project/abc', 'relative'],
  ['https://evil.example/', 'absolute URL'],
  ['//evil.example', 'protocol-relative'],
  ['/\\evil.example', 'backslash turned slash'],
  ['/\t/evil.example', 'tab dropped by browsers'],
  ['/\n/evil.example', 'newline dropped by browsers'],
  ['/\r/evil.example', 'carriage return'],
  ['/\u0000', 'NUL'],
  ['/a\u007f', 'DEL'],
  ['/a\u0085', 'C1 control'],
  ['/.//evil.example', 'dot segment leaving a double slash'],
  ['/..//evil.example', 'parent segment leaving a double slash'],
  ['javascript:alert(1)', 'script URL'],
  [' /project', 'leading space'],
];

describe('normaliseNextPath / isSafeNextPath', () => {
  it.each(accepted)('accepts %j as %j', (input, expected) => {
    expect(normaliseNextPath(input)).toBe(expected);
    expect(isSafeNextPath(input)).toBe(true);
  });

  it.each(refused)('refuses %j (%s)', (input) => {
    expect(normaliseNextPath(input)).toBeNull();
    expect(isSafeNextPath(input)).toBe(false);
  });
});
