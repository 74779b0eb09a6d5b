import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../src/crypto.ts';

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
