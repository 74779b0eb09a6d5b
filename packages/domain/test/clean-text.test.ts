import { describe, expect, it } from 'vitest';
import { cleanString, isCleanText, isEmail, projectCreateSchema, text, toFieldIssues } from '../src/index.ts';

// Issue 7, defect 4: one rule for every text field, id and token.
describe('isCleanText', () => {
  it.each([
    ['plain text', 'Acme Corp', true],
    ['accents and CJK', 'Société 東京', true],
    ['a surrogate pair (emoji)', 'Rocket 🚀', true],
    ['tab and line breaks (multi-line text)', 'a\tb\nc\r\nd', true],
    ['U+FFFD itself', 'broken \ufffd', true],
    ['the empty string', '', true],
    ['NUL', 'a\u0000b', false],
    ['another C0 control (bell)', 'a\u0007', false],
    ['escape', '\u001b[31m', false],
    ['DEL', 'a\u007f', false],
    ['a lone high surrogate', 'a\ud800', false],
    ['a lone high surrogate before a letter', '\ud800a', false],
    ['a lone low surrogate', '\udc00a', false],
    ['a low surrogate before a high one', '\udc00\ud800', false],
  ])('%s → %s', (_label, value, clean) => {
    expect(isCleanText(value)).toBe(clean);
  });
});

describe('the text rule in schemas', () => {
  it.each([
    ['text()', text()],
    ['cleanString(100)', cleanString(100)],
  ])('%s refuses a NUL and a lone surrogate with the invalid-characters message', (_label, schema) => {
    for (const bad of ['x\u0000', '\ud800']) {
      const result = schema.safeParse(bad);
      expect(result.success).toBe(false);
      if (!result.success) expect(toFieldIssues(result.error)[0]?.code).toBe('validation.invalid_characters');
    }
  });

  it('names the field of a project name holding a NUL', () => {
    const result = projectCreateSchema.safeParse({ name: 'Acme\u0000', pinLength: 4, email: 'a@b.cd' });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(toFieldIssues(result.error)).toEqual([
        {
          field: 'name',
          code: 'validation.invalid_characters',
          message: 'Contains characters that are not allowed (control characters or broken Unicode)',
        },
      ]);
    }
  });

  it('refuses an email holding a control character', () => {
    expect(isEmail('me@example.com')).toBe(true);
    expect(isEmail('me\u0000@example.com')).toBe(false);
  });
});
