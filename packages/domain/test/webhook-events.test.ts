import { describe, expect, it } from 'vitest';
import { webhookEventTypeOf } from '../src/index.ts';

// Issue 24 "Webhooks": which audit events go out, as which type (docs/decisions/0039).
describe('webhookEventTypeOf', () => {
  it('names a sign-in by its result, a registration, and a passkey revoked by an administrator or removed by its owner', () => {
    expect(webhookEventTypeOf({ scope: 'oidc', action: 'sign_in', result: 'success' })).toBe('sign_in.succeeded');
    expect(webhookEventTypeOf({ scope: 'oidc', action: 'sign_in', result: 'failed' })).toBe('sign_in.failed');
    expect(webhookEventTypeOf({ scope: 'oidc', action: 'sign_in', result: 'denied' })).toBe('sign_in.refused');
    expect(webhookEventTypeOf({ scope: 'oidc', action: 'device.register', result: 'created' })).toBe('device.registered');
    expect(webhookEventTypeOf({ scope: 'console', action: 'device.revoke', result: 'success' })).toBe('device.revoked');
    expect(webhookEventTypeOf({ scope: 'oidc', action: 'device.revoke', result: 'success' })).toBe('device.revoked');
  });

  it('names an end user’s recovery events by their action, a success only (docs/decisions/0051)', () => {
    for (const action of [
      'recovery.codes_created',
      'recovery.code_used',
      'recovery.email_started',
      'recovery.email_cancelled',
      'recovery.link_used',
      'recovery.custom_sign_in',
    ])
      expect(webhookEventTypeOf({ scope: 'oidc', action, result: 'success' })).toBe(action);
    expect(webhookEventTypeOf({ scope: 'oidc', action: 'recovery.code_used', result: 'failed' })).toBeNull();
    expect(webhookEventTypeOf({ scope: 'oidc', action: 'recovery.custom_sign_in', result: 'failed' })).toBeNull();
    expect(webhookEventTypeOf({ scope: 'console', action: 'recovery.custom_sign_in', result: 'success' })).toBeNull();
  });

  it('sends nothing for what no type names: a rename, a sign-out, a code exchanged, a console change that failed', () => {
    expect(webhookEventTypeOf({ scope: 'oidc', action: 'device.rename', result: 'success' })).toBeNull();
    expect(webhookEventTypeOf({ scope: 'oidc', action: 'sign_out', result: 'success' })).toBeNull();
    expect(webhookEventTypeOf({ scope: 'authcode', action: 'code.exchanged', result: 'success' })).toBeNull();
    expect(webhookEventTypeOf({ scope: 'console', action: 'device.revoke', result: 'failed' })).toBeNull();
  });
});
