import {
  backchannelLogoutUriProblem,
  canGenerateKeys,
  canSaveApplication,
  DomainError,
  redirectUriProblems,
  validationText,
  type Application,
  type ApplicationKeys,
  type StoredApplicationKeys,
} from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import type { SecretBox } from '../../crypto.ts';
import { isUniqueViolation, type Db } from '../../db/db.ts';
import { notFound } from '../../errors.ts';
import { checkVersion, type Versioned } from '../../http/etag.ts';
import type { Actor } from '../../http/actor.ts';
import type { AuditHook } from '../audit/audit.service.ts';
import { changesBetween, SECRET_CHANGED } from '../audit/changes.ts';
import { disabledApp, lockAppForWrite } from './application.ts';
import { findKeys, findProjectOfApplication, insertKeys, saveKeys } from './apps.repository.ts';
import { newClientId, newClientSecret, storedHashWith } from './client-secret.ts';

export interface AppKeysDeps {
  db: Db;
  clock: Clock;
  audit: AuditHook;
  /**
   * The issuer address of a project (issue 8), answered with its applications' keys: the same as
   * its GET issuer (its custom domain's origin when it has one, docs/decisions/0016), read with `db`.
   */
  issuerAddress: (db: Db, projectId: string) => Promise<string>;
  /** Client secrets are stored as keyed hashes under the master key (docs/decisions/0028). */
  secretBox: Pick<SecretBox, 'hmac'>;
  /**
   * Is this host (a URL's) an address the server may not call (loopback, private, link-local, unless
   * the operator allows its network: http/outgoing.ts)? A back-channel logout URI naming one is
   * refused when saved (and again at each delivery, after its name is resolved). Default: none is.
   */
  refusedHost?: (host: string) => boolean;
}

const noKeys = () => notFound('This application has no keys yet');

/**
 * What a keys call registers: redirect URIs and, when given (issue 22), post-logout redirect URIs and
 * the back-channel logout URI ('' none).
 */
export interface KeysRegistration {
  redirectURI: string[];
  postLogoutRedirectURI?: string[] | undefined;
  backchannelLogoutURI?: string | undefined;
}

/** The registration as the keys record it, before and after, for the audit log. */
const registrationOf = (keys: StoredApplicationKeys) => ({
  redirectURI: keys.redirectURI,
  postLogoutRedirectURI: keys.postLogoutRedirectURI,
  backchannelLogoutURI: keys.backchannelLogoutURI,
});

/**
 * The URIs an application of its type may register (redirectUriProblems, backchannelLogoutUriProblem):
 * the body's schema checked them as a list; the type is the application's, known only here. A
 * back-channel logout URI on an address the server may not call is refused too.
 */
function checkRedirectsOf(application: Application, uris: KeysRegistration, refusedHost: (host: string) => boolean): void {
  const problemsOf = (field: string, list: string[]) =>
    redirectUriProblems(list, application.applicationType).flatMap((code, index) =>
      code ? [{ field: `${field}.${index}`, code, message: validationText(code) }] : [],
    );
  const backchannel = uris.backchannelLogoutURI ?? '';
  const backchannelProblem =
    backchannelLogoutUriProblem(backchannel, application.applicationType) ??
    (backchannel !== '' && refusedHost(new URL(backchannel).hostname) ? 'validation.private_address' : null);
  const issues = [
    ...problemsOf('redirectURI', uris.redirectURI),
    ...problemsOf('postLogoutRedirectURI', uris.postLogoutRedirectURI ?? []),
    ...(backchannelProblem ? [{ field: 'backchannelLogoutURI', code: backchannelProblem, message: validationText(backchannelProblem) }] : []),
  ];
  if (issues.length > 0) throw new DomainError('validation_failed', issues.map((i) => i.message).join('; '), issues);
}

/** The back-channel logout URI to store: the registration's when given ('' none), else the current one. */
const backchannelOf = (registration: KeysRegistration, current: StoredApplicationKeys | null): string | null => {
  const uri = registration.backchannelLogoutURI ?? current?.backchannelLogoutURI ?? '';
  return uri === '' ? null : uri;
};

/** The URIs a replacing save stores: the registration's, the current ones where it gives none. */
const replacedUris = (registration: KeysRegistration, current: StoredApplicationKeys) => ({
  redirectUris: registration.redirectURI,
  postLogoutRedirectUris: registration.postLogoutRedirectURI ?? current.postLogoutRedirectURI,
  backchannelLogoutUri: backchannelOf(registration, current),
});

/** The keys of a locked application, locked too; checked against If-Match. */
async function lockKeys(tx: Db, applicationId: string, ifMatch: number | null): Promise<Versioned<StoredApplicationKeys>> {
  const keys = await findKeys(tx, applicationId, { forUpdate: true });
  if (!keys) throw noKeys();
  checkVersion(keys.version, ifMatch, "application's keys");
  return keys;
}

/** The keys as answered: as stored, with the project's issuer address and, once, the new secret. */
async function answer(
  issuerAddress: AppKeysDeps['issuerAddress'],
  tx: Db,
  keys: Versioned<StoredApplicationKeys>,
  projectId: string,
  clientSecret = '',
): Promise<Versioned<ApplicationKeys>> {
  return { value: { ...keys.value, clientSecret, issuer: await issuerAddress(tx, projectId) }, version: keys.version };
}

/** Before changing existing keys: both rows locked (application first), the change allowed, the URIs checked. */
async function lockForChange(
  tx: Db,
  applicationId: string,
  change: { registration: KeysRegistration; ifMatch: number | null; refusedHost: (host: string) => boolean },
  allowed: (application: Application) => boolean,
  what: string,
) {
  const { value: application } = await lockAppForWrite(tx, applicationId);
  const current = await lockKeys(tx, applicationId, change.ifMatch);
  if (!allowed(application)) throw disabledApp(what);
  checkRedirectsOf(application, change.registration, change.refusedHost);
  return { application, current };
}

/** An application's first keys, created once with the first secret, and its keys as read. */
export function createFirstKeysCalls({ db, clock, audit, issuerAddress, secretBox, refusedHost = () => false }: AppKeysDeps) {
  const storedHash = storedHashWith(secretBox);

  return {
    /**
     * spec §7 "POST {keysEndpoint}" after creating the app: the client id and the first secret,
     * answered this once. An application has one set of keys; asking again is 409 — a new secret
     * is "generate new keys".
     */
    async createKeys(actor: Actor, applicationId: string, registration: KeysRegistration): Promise<Versioned<ApplicationKeys>> {
      return db.transaction(async (tx) => {
        const { value: application } = await lockAppForWrite(tx, applicationId);
        if (!canGenerateKeys(application, { enabled: true })) throw disabledApp('creating its keys');
        checkRedirectsOf(application, registration, refusedHost);
        if (await findKeys(tx, applicationId)) {
          throw new DomainError('conflict', 'This application already has keys; generate new keys to replace the secret');
        }
        const clientSecret = newClientSecret();
        let keys: Versioned<StoredApplicationKeys>;
        try {
          keys = await insertKeys(tx, {
            applicationId,
            clientId: newClientId(),
            clientSecretHash: storedHash(clientSecret),
            redirectUris: registration.redirectURI,
            postLogoutRedirectUris: registration.postLogoutRedirectURI ?? [],
            backchannelLogoutUri: backchannelOf(registration, null),
            now: clock.now(),
          });
        } catch (error) {
          if (isUniqueViolation(error)) throw new DomainError('conflict', 'This application already has keys');
          throw error;
        }
        await audit(tx, {
          actor,
          action: 'app.keys.create',
          result: 'created',
          projectId: application.projectId,
          changes: { ...changesBetween(null, { clientId: keys.value.clientId, ...registrationOf(keys.value) }), clientSecret: SECRET_CHANGED },
          details: { applicationId, clientId: keys.value.clientId, ...registrationOf(keys.value) },
        });
        // spec §4 "One-time secrets": the secret is in this answer and nowhere else.
        return answer(issuerAddress, tx, keys, application.projectId, clientSecret);
      });
    },

    /** spec §7 "GET {keysEndpoint}": never the secret (it is not kept). */
    async getKeys(applicationId: string): Promise<Versioned<ApplicationKeys>> {
      const [keys, projectId] = await Promise.all([findKeys(db, applicationId), findProjectOfApplication(db, applicationId)]);
      if (!keys || !projectId) throw noKeys();
      return answer(issuerAddress, db, keys, projectId);
    },
  };
}

/** An application's keys changed: re-registered, or replaced by new ones (a new secret). */
export function createKeysChangeCalls({ db, clock, audit, issuerAddress, secretBox, refusedHost = () => false }: AppKeysDeps) {
  const storedHash = storedHashWith(secretBox);

  return {
    /** spec §7 "PUT {keysEndpoint}": replaces the redirect URIs, part of the settings save (spec §4). */
    async updateKeys(
      actor: Actor,
      applicationId: string,
      registration: KeysRegistration,
      ifMatch: number | null,
    ): Promise<Versioned<ApplicationKeys>> {
      return db.transaction(async (tx) => {
        const allowed = (application: Application) => canSaveApplication(application, { enabled: true });
        const { application, current } = await lockForChange(tx, applicationId, { registration, ifMatch, refusedHost }, allowed, 'changing it');
        const keys = await saveKeys(tx, { applicationId, ...replacedUris(registration, current.value), now: clock.now() });
        await audit(tx, {
          actor,
          action: 'app.keys.update',
          result: 'success',
          projectId: application.projectId,
          changes: changesBetween(registrationOf(current.value), registrationOf(keys.value)),
          details: { applicationId, before: registrationOf(current.value), after: registrationOf(keys.value) },
        });
        return answer(issuerAddress, tx, keys, application.projectId);
      });
    },

    /**
     * spec §7 "POST {generateNewKeysEndpoint}" with `redirectURI`: the new secret and the new
     * redirect URI list together. spec §4: only while enabled, and the new keys invalidate the old
     * ones — the old hash is overwritten in this transaction. The client id stays. Concurrency goes
     * through If-Match on the keys' version, as for every other write.
     */
    async generateKeys(
      actor: Actor,
      applicationId: string,
      registration: KeysRegistration,
      ifMatch: number | null,
    ): Promise<Versioned<ApplicationKeys>> {
      return db.transaction(async (tx) => {
        const allowed = (application: Application) => canGenerateKeys(application, { enabled: true });
        const { application, current } = await lockForChange(
          tx,
          applicationId,
          { registration, ifMatch, refusedHost },
          allowed,
          'generating new keys',
        );
        const clientSecret = newClientSecret();
        const keys = await saveKeys(tx, {
          applicationId,
          ...replacedUris(registration, current.value),
          clientSecretHash: storedHash(clientSecret),
          now: clock.now(),
        });
        await audit(tx, {
          actor,
          action: 'app.keys.generate',
          result: 'success',
          projectId: application.projectId,
          // The old secret stops working: always a change, never its value.
          changes: {
            ...changesBetween(registrationOf(current.value), registrationOf(keys.value)),
            clientSecret: SECRET_CHANGED,
          },
          details: {
            applicationId,
            clientId: keys.value.clientId,
            before: registrationOf(current.value),
            after: registrationOf(keys.value),
          },
        });
        return answer(issuerAddress, tx, keys, application.projectId, clientSecret);
      });
    },
  };
}
