import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox, randomBytesPooled } from '../src/crypto.ts';

describe('SecretBox.isSealed: a sealed value told from plain text', () => {
  const box = createSecretBox(randomBytes(32));
  const other = createSecretBox(randomBytes(32));

  it.each([
    ['sealed here', box.seal('{"private_key":"x"}', 'c'), true],
    ['sealed empty', box.seal('', 'c'), true],
    ['sealed under another key', other.seal('secret', 'c'), true],
    ['a service-account document', '{"type":"service_account","private_key":"-----BEGIN PRIVATE KEY-----"}', false],
    ['empty', '', false],
    ['the prefix alone', 'lk1.', false],
    ['a sealed value with its tag cut', box.seal('secret', 'c').slice(0, -1), false],
    ['a sealed value with text around it', ` ${box.seal('secret', 'c')}`, false],
  ])('%s → %s', (_what, value, sealed) => {
    expect(box.isSealed(value)).toBe(sealed);
  });
});

describe('random bytes from the pool (issue 38)', () => {
  it('hands out each byte once: values of every size differ, across refills of the pool, and are copies', () => {
    const seen = new Set<string>();
    // 16 × 1,000 bytes: about four refills of the 4 KiB pool.
    for (let i = 0; i < 1000; i += 1) {
      const value = randomBytesPooled(16);
      expect(value).toHaveLength(16);
      seen.add(value.toString('hex'));
    }
    expect(seen.size).toBe(1000);
    const kept = randomBytesPooled(12);
    const copy = Buffer.from(kept);
    for (let i = 0; i < 600; i += 1) randomBytesPooled(7);
    expect(kept.equals(copy)).toBe(true);
    expect(randomBytesPooled(1000)).toHaveLength(1000);
    // Not all zeros (a pool handed out before it was filled would be).
    expect(randomBytesPooled(32).equals(Buffer.alloc(32))).toBe(false);
  });
});
