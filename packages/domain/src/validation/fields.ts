import { z } from 'zod';
import { PIN_LENGTH_MAX, PIN_LENGTH_MIN, TEXT_MAX_LENGTH } from '../constants.ts';
import type { ValidationMessageKey } from './messages.ts';

const msg = (key: ValidationMessageKey) => ({ error: key });

/** An absolute http(s) URL. */
export function isUrl(value: string): boolean {
  if (/\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

// Schemes that run code or read local files where a browser follows them: never a redirect,
// origin or callback address, whatever RFC 3986 allows.
const UNSAFE_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:']);

/** An absolute URI: a scheme followed by a scheme-specific part (RFC 3986), e.g. https://…, com.app:/cb. */
export function isUri(value: string): boolean {
  if (/\s/.test(value)) return false;
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:.+/.test(value)) return false;
  if (UNSAFE_SCHEMES.has(value.slice(0, value.indexOf(':') + 1).toLowerCase())) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

// C0 controls other than tab, line feed and carriage return, DEL, and UTF-16 surrogates that are
// not part of a pair. PostgreSQL refuses NUL in text; a lone surrogate has no UTF-8 form and would
// be stored silently as U+FFFD. Neither is ever meaningful in a name, URL, email or id.
// eslint-disable-next-line no-control-regex -- matching control characters is the point of this rule
const FORBIDDEN_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when `value` holds no control character (but tab and line breaks) and no lone surrogate. */
export function isCleanText(value: string): boolean {
  return !FORBIDDEN_CHARACTERS.test(value);
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export function isEmail(value: string): boolean {
  return EMAIL.test(value) && isCleanText(value);
}

// spec §5: optional leading plus, then digits only.
export function isPhone(value: string): boolean {
  return /^\+?\d+$/.test(value);
}

/**
 * Any string the API takes: no control characters and no lone surrogates (the one rule for every
 * text field, id and token; path, query and headers are guarded the same way by the server).
 * `max` bounds the length; ids and tokens are not trimmed.
 */
export const cleanString = (max: number) =>
  z.string(msg('validation.required')).max(max, msg('validation.max_length')).refine(isCleanText, msg('validation.invalid_characters'));

// spec §5: text inputs are trimmed; maximum 250 characters throughout.
export const text = () =>
  z
    .string(msg('validation.required'))
    .trim()
    .max(TEXT_MAX_LENGTH, msg('validation.max_length'))
    .refine(isCleanText, msg('validation.invalid_characters'));
export const requiredText = () => text().min(1, msg('validation.required'));
export const optionalUrl = () => text().refine((v) => v === '' || isUrl(v), msg('validation.invalid_url'));
export const requiredUrl = () => requiredText().refine(isUrl, msg('validation.invalid_url'));
export const optionalUri = () => text().refine((v) => v === '' || isUri(v), msg('validation.invalid_uri'));
export const requiredUri = () => requiredText().refine(isUri, msg('validation.invalid_uri'));
export const requiredEmail = () => requiredText().refine(isEmail, msg('validation.invalid_email'));
export const optionalEmail = () => text().refine((v) => v === '' || isEmail(v), msg('validation.invalid_email'));
export const optionalPhone = () => text().refine((v) => v === '' || isPhone(v), msg('validation.invalid_phone'));
export const pinLength = () =>
  z
    .number(msg('validation.not_a_number'))
    .int(msg('validation.not_a_number'))
    .min(PIN_LENGTH_MIN, msg('validation.out_of_range'))
    .max(PIN_LENGTH_MAX, msg('validation.out_of_range'));
