import { describe, expect, it } from 'vitest';
import {
  isEmail,
  isPhone,
  isUri,
  isUrl,
  issuerSchema,
  defaultIssuer,
  projectCreateSchema,
  projectMetaSchema,
  projectSettingsSchema,
  newProjectSettings,
  toFieldIssues,
  validationMessages,
} from '../src/index.ts';

function issuesOf(result: { success: boolean; error?: unknown }) {
  if (result.success) return [];
  return toFieldIssues(result.error as Parameters<typeof toFieldIssues>[0]);
}

describe('spec §5 messages', () => {
  it('carries the spec texts', () => {
    expect(validationMessages['validation.required']).toBe('Required');
    expect(validationMessages['validation.max_length']).toBe('Maximum input length exceeded');
    expect(validationMessages['validation.login_method']).toBe('You must select at least one login method');
    expect(validationMessages['validation.invalid_email']).toBe('Invalid email');
    expect(validationMessages['validation.not_a_number']).toBe('Value not a valid number');
    expect(validationMessages['validation.out_of_range']).toBe('Value not in the valid range');
    expect(validationMessages['validation.invalid_url']).toBe('Invalid URL');
    expect(validationMessages['validation.invalid_uri']).toBe('Invalid URI');
    expect(validationMessages['validation.invalid_phone']).toBe('Invalid phone number');
  });
});

describe('project create (spec §5)', () => {
  const ok = { name: 'Acme', pinLength: 4, email: 'a@example.com' };
  it('accepts a valid project and trims the name', () => {
    const parsed = projectCreateSchema.parse({ ...ok, name: '  Acme  ' });
    expect(parsed.name).toBe('Acme');
  });
  it('defaults pinLength to 4', () => {
    expect(projectCreateSchema.parse({ name: 'x', email: 'a@example.com' }).pinLength).toBe(4);
  });
  it.each([
    ['empty name', { ...ok, name: '' }, 'name', 'Required'],
    ['blank name', { ...ok, name: '   ' }, 'name', 'Required'],
    ['missing name', { pinLength: 4, email: 'a@example.com' }, 'name', 'Required'],
    ['251 characters', { ...ok, name: 'x'.repeat(251) }, 'name', 'Maximum input length exceeded'],
    ['pin length 3', { ...ok, pinLength: 3 }, 'pinLength', 'Value not in the valid range'],
    ['pin length 7', { ...ok, pinLength: 7 }, 'pinLength', 'Value not in the valid range'],
    ['pin length text', { ...ok, pinLength: 'four' }, 'pinLength', 'Value not a valid number'],
    ['pin length fraction', { ...ok, pinLength: 4.5 }, 'pinLength', 'Value not a valid number'],
    ['bad email', { ...ok, email: 'nope' }, 'email', 'Invalid email'],
  ])('rejects %s', (_n, input, field, message) => {
    expect(issuesOf(projectCreateSchema.safeParse(input))).toContainEqual(expect.objectContaining({ field, message }));
  });
  it('accepts exactly 250 characters after trimming', () => {
    expect(projectCreateSchema.safeParse({ ...ok, name: ` ${'x'.repeat(250)} ` }).success).toBe(true);
  });
});

describe('project settings (spec §5)', () => {
  const base = newProjectSettings('Acme');
  it('accepts the settings of a new project', () => {
    expect(projectSettingsSchema.safeParse(base).success).toBe(true);
  });
  it.each([
    ['customDomain', { customDomain: 'not a uri' }, 'customDomain', 'Invalid URI'],
    ['logoUrl', { logoUrl: 'ftp//x' }, 'logoUrl', 'Invalid URL'],
    ['helpUrl', { helpUrl: 'javascript:alert(1)' }, 'helpUrl', 'Invalid URL'],
    ['supportEmail', { supportEmail: 'x@' }, 'supportEmail', 'Invalid email'],
    ['supportPhone with spaces', { supportPhone: '+44 20' }, 'supportPhone', 'Invalid phone number'],
    ['supportPhone with letters', { supportPhone: '12a' }, 'supportPhone', 'Invalid phone number'],
    ['displayName too long', { displayName: 'd'.repeat(251) }, 'displayName', 'Maximum input length exceeded'],
    ['CORS entry empty', { allowedCORSDomains: [''] }, 'allowedCORSDomains.0', 'Required'],
    ['CORS entry not a URI', { allowedCORSDomains: ['example'] }, 'allowedCORSDomains.0', 'Invalid URI'],
    ['pinLength out of range', { pinLength: 8 }, 'pinLength', 'Value not in the valid range'],
  ])('rejects %s', (_n, patch, field, message) => {
    expect(issuesOf(projectSettingsSchema.safeParse({ ...base, ...patch }))).toContainEqual(expect.objectContaining({ field, message }));
  });
  it('needs at least one login method (spec §5)', () => {
    const off = { ...base.loginOptions, mobileLoginEnabled: false, browserLoginEnabled: false };
    expect(issuesOf(projectSettingsSchema.safeParse({ ...base, loginOptions: off }))).toContainEqual(
      expect.objectContaining({ field: 'loginOptions', message: 'You must select at least one login method' }),
    );
  });
  it('needs a Firebase project id when push is enabled (spec §5)', () => {
    const push = { ...base.pushOptions, enabled: true, projectId: '' };
    expect(issuesOf(projectSettingsSchema.safeParse({ ...base, pushOptions: push }))).toContainEqual(
      expect.objectContaining({ field: 'pushOptions.projectId', message: 'Required' }),
    );
    expect(projectSettingsSchema.safeParse({ ...base, pushOptions: { ...push, projectId: 'fb-1' } }).success).toBe(true);
  });
  it('accepts an empty CORS list and a phone with a leading plus', () => {
    expect(projectSettingsSchema.safeParse({ ...base, allowedCORSDomains: [], supportPhone: '+4420' }).success).toBe(true);
  });
});

describe('project meta', () => {
  it('defaults purchaseOrder and referrer', () => {
    expect(projectMetaSchema.parse({ enabled: false })).toEqual({ enabled: false, purchaseOrder: '', referrer: '' });
  });
});

describe('issuer (spec §5)', () => {
  it('accepts the default issuer', () => {
    expect(issuerSchema.safeParse(defaultIssuer()).success).toBe(true);
  });
  it('needs at least one token endpoint auth method and one challenge method', () => {
    const fields = issuesOf(issuerSchema.safeParse({ ...defaultIssuer(), token_endpoint_auth_methods: [], code_challenge_methods: [] })).map(
      (i) => i.field,
    );
    expect(fields).toEqual(expect.arrayContaining(['token_endpoint_auth_methods', 'code_challenge_methods']));
  });
  it('needs the PKCE-only flag', () => {
    const { allow_pkce_only_token_exchange: _, ...rest } = defaultIssuer();
    expect(issuesOf(issuerSchema.safeParse(rest))).toContainEqual(
      expect.objectContaining({ field: 'allow_pkce_only_token_exchange', message: 'Required' }),
    );
  });
});

describe('field predicates', () => {
  it.each([
    ['https://example.com', true],
    ['http://localhost:8080/x', true],
    ['example.com', false],
    ['mailto:a@b.c', false],
    ['https://exa mple.com', false],
  ])('isUrl(%s) = %s', (v, expected) => expect(isUrl(v)).toBe(expected));
  it.each([
    ['https://example.com/cb', true],
    ['com.example.app:/callback', true],
    ['urn:ietf:wg:oauth:2.0:oob', true],
    ['/relative', false],
    ['example', false],
    ['', false],
    ['javascript:alert(1)//', false],
    ['JavaScript:alert(1)', false],
    ['data:text/html,<script>1</script>', false],
    ['vbscript:msgbox', false],
    ['file:///etc/passwd', false],
  ])('isUri(%s) = %s', (v, expected) => expect(isUri(v)).toBe(expected));
  it.each([
    ['a@example.com', true],
    ['a@example', false],
    ['@example.com', false],
  ])('isEmail(%s) = %s', (v, expected) => expect(isEmail(v)).toBe(expected));
  it.each([
    ['+123', true],
    ['0123', true],
    ['+', false],
    ['12-34', false],
  ])('isPhone(%s) = %s', (v, expected) => expect(isPhone(v)).toBe(expected));
});
