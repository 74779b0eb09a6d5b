import { api, ERROR_CODES, errorCodesOf, type FieldIssue } from '@latchkey/domain';
import { describe, expect, it } from 'vitest';
import { ApiError, CLIENT_ERROR_CODES } from './api/api-error.ts';
import { errorMessage } from './error-message.ts';
import { en } from './i18n/en.ts';
import { fr } from './i18n/fr.ts';
import { ro } from './i18n/ro.ts';
import { Translator } from './i18n/runtime.ts';

// issue 35: every error code an API call can answer (the contract's, domain `errorCodesOf`) and the
// client's own have their message in each language, so no failure is shown in the server's English.

const contractCodes = [...new Set(Object.values(api).flatMap((endpoint) => errorCodesOf(endpoint)))].sort();
const shownCodes = [...contractCodes, ...CLIENT_ERROR_CODES];
const catalogues = { en, fr, ro } as const;

describe('the messages of error codes', () => {
  it('are asked for every code of the API: the contract answers each of them', () => {
    expect(contractCodes).toEqual([...ERROR_CODES].sort());
  });

  describe.each(Object.entries(catalogues))('in %s', (_language, catalogue) => {
    const codes: Record<string, unknown> = catalogue.apiErrors.codes;

    it.each(shownCodes)('have one for %s', (code) => {
      expect(typeof codes[code], code).toBe('string');
      expect(String(codes[code]).trim(), code).not.toBe('');
    });

    it('have none for a code that no call answers', () => {
      expect(Object.keys(codes).sort()).toEqual([...shownCodes].sort());
    });
  });

  it('keep the spec’s wording in English (spec §2 "Authentication declined")', () => {
    expect(en.apiErrors.codes.registration_disabled).toBe('Registration is disabled');
  });
});

function translator(language: 'en' | 'fr') {
  const instance = new Translator({
    language,
    fallbackLanguage: 'en',
    defaultNS: 'translation',
    resources: { en: { translation: en }, fr: { translation: fr } },
  });
  return (key: string, options?: Record<string, unknown>) => instance.t(key, options);
}

const issue = (field: string, code = 'conflict'): FieldIssue => ({ field, code, message: 'In use' });

describe('errorMessage', () => {
  const english = translator('en');
  const french = translator('fr');

  it('says the catalogue text of the code, not the server’s English; in English the server’s words, which carry the detail (spec §8)', () => {
    const error = new ApiError(409, 'conflict', 'This application already has keys');
    expect(errorMessage(error, french, 'fr')).toBe('Cela entre en conflit avec l’état actuel de l’élément modifié');
    expect(errorMessage(error, english, 'en')).toBe('This application already has keys');
    // A server failure is the catalogue's in every language (its text says nothing a person can act on).
    expect(errorMessage(new ApiError(500, 'internal', 'Database unavailable'), english, 'en')).toBe(
      'Something went wrong on our side; try again later',
    );
  });

  it('names the fields the answer’s issues name, each once', () => {
    const error = new ApiError(409, 'conflict', 'Another project uses a.example', [
      issue('customDomain'),
      issue('customMobileDomain'),
      issue('customDomain'),
    ]);
    expect(errorMessage(error, english, 'en')).toBe('Another project uses a.example');
    expect(errorMessage(error, french, 'fr')).toBe('La valeur de customDomain, customMobileDomain entre en conflit avec une valeur existante');
  });

  it('says the messages of a rejected input’s issues, each once, by their keys', () => {
    const error = new ApiError(400, 'validation_failed', 'Required; Invalid URL; Required', [
      issue('name', 'validation.required'),
      issue('redirectURI.0', 'validation.invalid_url'),
      issue('url', 'validation.required'),
    ]);
    expect(errorMessage(error, english, 'en')).toBe('Required; Invalid URL');
    expect(errorMessage(error, french, 'fr')).toBe('Obligatoire\u202f; URL non valide');
    expect(errorMessage(new ApiError(400, 'validation_failed', 'Invalid request'), english, 'en')).toBe('Some of the values sent were not accepted');
  });

  it('keeps the plain text for issues about the whole body, and for a code with no text naming fields', () => {
    expect(errorMessage(new ApiError(403, 'forbidden', 'No', [issue('', 'forbidden')]), french, 'fr')).toBe(
      'Vous n’avez pas l’autorisation nécessaire pour cette action',
    );
    expect(errorMessage(new ApiError(404, 'not_found', 'Not found', [issue('project')]), french, 'fr')).toBe(
      'Élément introuvable\u202f: il n’existe pas, ou vous n’y avez pas accès',
    );
  });

  it('says a conflict answered 412 is a change someone else made meanwhile', () => {
    const error = new ApiError(412, 'conflict', 'The application was changed by someone else; reload and try again');
    expect(errorMessage(error, french, 'fr')).toBe('Quelqu’un d’autre a modifié cet élément entre-temps\u202f; rechargez et réessayez');
  });

  it('translates the client’s own codes', () => {
    expect(errorMessage(new ApiError(0, 'network_error', 'Failed to fetch'), french, 'fr')).toBe(
      'Le serveur est injoignable\u202f; vérifiez votre connexion et réessayez',
    );
  });

  it('falls back to the server’s text for a code the console does not know', () => {
    expect(errorMessage(new ApiError(429, 'rate_limited', 'Slow down'), french, 'fr')).toBe('Slow down');
  });

  it('reads through an error that wraps an API error (the key step of creating an application)', () => {
    const wrapped = new Error('Forbidden', { cause: new ApiError(403, 'forbidden', 'You do not have the permission for this') });
    expect(errorMessage(wrapped, french, 'fr')).toBe('Vous n’avez pas l’autorisation nécessaire pour cette action');
  });

  it('says what another failure says, and nothing for no error', () => {
    expect(errorMessage(new TypeError('x is undefined'), french, 'fr')).toBe('x is undefined');
    expect(errorMessage(undefined, french, 'fr')).toBeNull();
    expect(errorMessage('a string', french, 'fr')).toBeNull();
  });
});
