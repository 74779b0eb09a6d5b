import { isErrorCode } from '@latchkey/domain';
import { useCallback } from 'react';
import { isApiError, type ApiError, type ApiErrorCode } from './api/index.ts';
import { CLIENT_ERROR_CODES } from './api/api-error.ts';
import { en, i18n } from './i18n/index.ts';
import { useTranslation } from './i18n/react.tsx';
import { validationKey } from './i18n/validation.ts';
import type { TranslateOptions } from './i18n/runtime.ts';

type Translate = (key: string, options?: TranslateOptions) => string;

function isKnownCode(code: string): code is ApiErrorCode {
  return isErrorCode(code) || (CLIENT_ERROR_CODES as readonly string[]).includes(code);
}

/** The API error a failure is, or was caused by (the key step of creating an application wraps one). */
function apiErrorOf(error: unknown): ApiError | null {
  if (isApiError(error)) return error;
  if (error instanceof Error && isApiError(error.cause)) return error.cause;
  return null;
}

/** The fields the answer's issues name, each once ('' is the whole body, which names none). */
function fieldsOf(error: ApiError): string[] {
  return [...new Set(error.issues.map((issue) => issue.field).filter((field) => field !== ''))];
}

function apiErrorText(error: ApiError, t: Translate, language: string): string {
  const { code } = error;
  if (!isKnownCode(code)) return error.message;
  if (code === 'conflict' && error.status === 412) return t('apiErrors.staleVersion');
  // The server words a refusal in English with what the code alone cannot say ("The application is
  // disabled; enable it before generating new keys": spec §8's raw message): in English it stands.
  if (language === 'en' && error.status < 500 && code !== 'validation_failed' && error.message && isErrorCode(code)) return error.message;
  // As the server words it in English: its issues' messages, here each by its key in the catalogue.
  if (code === 'validation_failed' && error.issues.length > 0) {
    return [...new Set(error.issues.map((issue) => t(validationKey(issue.code))))].join(t('apiErrors.issueSeparator'));
  }
  const fields = fieldsOf(error);
  if (fields.length > 0 && Object.hasOwn(en.apiErrors.withFields, code)) {
    return t(`apiErrors.withFields.${code}`, { fields: fields.join(', ') });
  }
  return t(`apiErrors.codes.${code}`);
}

/**
 * issue 35: what the console says about a failed call, in its language — the catalogue's text for
 * the answer's code (with the fields its issues name, or for a rejected input its issues' own
 * messages; a stale If-Match as such), never the server's English in French or Romanian. In
 * English a refusal (4xx) is the server's own words, which carry its detail.
 * The server's own text only for a code this console does not know (a newer server); a failure that
 * is no API error at all (a bug) its own message; null when there is nothing to say.
 */
export function errorMessage(error: unknown, t: Translate = (key, options) => i18n.t(key, options), language: string = i18n.language): string | null {
  const apiError = apiErrorOf(error);
  if (apiError) return apiErrorText(apiError, t, language);
  return error instanceof Error && error.message ? error.message : null;
}

/** `errorMessage` in the language the component renders in: its text follows a change of language. */
export function useErrorMessage(): (error: unknown) => string | null {
  const { t, i18n: translator } = useTranslation();
  const language = translator.language;
  // The hook's `t` is the runtime's `fixedT` with the catalogue's key types laid over it; the keys
  // here are built from codes, so it is taken as the plain function it is.
  return useCallback((error: unknown) => errorMessage(error, t as unknown as Translate, language), [t, language]);
}
