import { expect, it } from 'vitest';
import { hitAll, type RateLimit } from '../src/db/rate-limits.repository.ts';
import { describeEachDatabase } from './support/databases.ts';

// The shared fixed-window counters every limit of the issuer and the sign-in pages stands on.
describeEachDatabase('rate limits', (d) => {
  const now = new Date('2026-11-28T10:00:00Z');
  const limit = (name: string, max: number): RateLimit => ({ name, bucket: `test-${name}-${Math.random()}`, max, windowMs: 60_000 });
  const ISSUER = 'prate0000000001';
  const hits = async (bucket: string, issuer = ISSUER) =>
    (await d.db.query<{ hits: number }>('SELECT hits FROM rate_limit_windows WHERE issuer = $1 AND bucket = $2', [issuer, bucket])).rows[0]?.hits ??
    0;

  it('counts a hit in every limit, or in none when one is used up, and answers that one', async () => {
    const client = limit('client', 3);
    const project = limit('project', 2);
    expect(await hitAll(d.db, ISSUER, [client, project], now)).toBeNull();
    expect(await hitAll(d.db, ISSUER, [client, project], now)).toBeNull();
    expect(await hitAll(d.db, ISSUER, [client, project], now)).toBe(project);
    expect([await hits(client.bucket), await hits(project.bucket)]).toEqual([2, 2]);
    // A new window starts the count again.
    expect(await hitAll(d.db, ISSUER, [client, project], new Date(now.getTime() + 60_000))).toBeNull();
    expect([await hits(client.bucket), await hits(project.bucket)]).toEqual([1, 1]);
    // One bucket named twice is one counter, at the lower maximum.
    const twice = limit('twice', 5);
    expect(await hitAll(d.db, ISSUER, [twice, { ...twice, max: 1 }], now)).toBeNull();
    expect(await hitAll(d.db, ISSUER, [twice, { ...twice, max: 1 }], now)).toMatchObject({ bucket: twice.bucket });
    expect(await hits(twice.bucket)).toBe(1);
  });

  it('keeps each issuer its own counters, even under the same bucket', async () => {
    const shared = limit('shared', 1);
    expect(await hitAll(d.db, ISSUER, [shared], now)).toBeNull();
    expect(await hitAll(d.db, ISSUER, [shared], now)).toBe(shared);
    expect(await hitAll(d.db, 'console', [shared], now)).toBeNull();
    expect([await hits(shared.bucket), await hits(shared.bucket, 'console')]).toEqual([1, 1]);
  });

  it('lets no more than the maximum through when hits arrive together', async () => {
    const shared = limit('together', 5);
    const answers = await Promise.all(Array.from({ length: 20 }, () => hitAll(d.db, ISSUER, [shared], now)));
    expect(answers.filter((a) => a === null)).toHaveLength(5);
    expect(await hits(shared.bucket)).toBe(5);
  });
});
