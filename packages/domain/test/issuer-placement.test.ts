import { describe, expect, it } from 'vitest';
import { holdsOwnHost } from '../src/index.ts';

// docs/decisions/0047, 0049: what the console reads from GET projects/{p}/issuer's own_host and moves.
describe('holdsOwnHost', () => {
  it.each([
    [{ own_host: 'http://p1.localhost:8080', moves: [] }, true],
    [{ own_host: 'http://p1.localhost:8080' }, true],
    [{ own_host: 'http://p1.localhost:8080', moves: ['ownHost' as const] }, false],
    [{ own_host: '', moves: [] }, false],
    [{ moves: [] }, false],
  ])('%j → %s', (issuer, expected) => {
    expect(holdsOwnHost(issuer)).toBe(expected);
  });
});
