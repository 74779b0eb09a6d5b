import { describe, expect, it } from 'vitest';
import { PASSKEY_NAME_MAX, passkeyNameOf } from '../src/index.ts';

// Issue 24, the account page: what a person may name their passkey.
describe('passkeyNameOf', () => {
  it('trims the name and keeps any letters, up to PASSKEY_NAME_MAX characters (not UTF-16 units)', () => {
    expect(passkeyNameOf('  Work laptop ')).toBe('Work laptop');
    expect(passkeyNameOf('Téléphone de Zoé 📱')).toBe('Téléphone de Zoé 📱');
    expect(passkeyNameOf('📱'.repeat(PASSKEY_NAME_MAX))).toBe('📱'.repeat(PASSKEY_NAME_MAX));
  });

  it('refuses an empty name, a longer one, and control or format characters', () => {
    expect(passkeyNameOf('   ')).toBeNull();
    expect(passkeyNameOf('x'.repeat(PASSKEY_NAME_MAX + 1))).toBeNull();
    expect(passkeyNameOf('line\nbreak')).toBeNull();
    expect(passkeyNameOf('evil\u202Egnp.exe')).toBeNull();
    expect(passkeyNameOf('zero\u200Bwidth')).toBeNull();
  });
});
