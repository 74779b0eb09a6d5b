import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  canGenerateKeys,
  canSaveApplication,
  DomainError,
  redirectUriMatches,
  type Application,
  type ApplicationKeys,
  type StoredApplicationKeys,
  type ApplicationListQuery,
  type ApplicationType,
  type PlatformCode,
  backchannelLogoutUriProblem,
  redirectUriProblems,
  validationText,
} from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import { randomBase32, safeEqual, type SecretBox } from '../../crypto.ts';
import { isUniqueViolation, type Db } from '../../db/db.ts';
import { notFound, projectClosed } from '../../errors.ts';
import { checkVersion, type Versioned } from '../../http/etag.ts';
import type { Actor } from '../../http/actor.ts';
import type { AuditHook } from '../audit/audit.service.ts';
import { changesBetween, SECRET_CHANGED } from '../audit/changes.ts';
import type { Client } from '../../issuer/project-provider.ts';
import {
  findApplication,
  findClient,
  findKeys,
  findProjectOfApplication,
  rehashClientSecret,
  insertApplication,
  insertKeys,
  applicationsTable,
  freshCounts,
  lockProjectForAppWrite,
  saveApplication,
  saveKeys,
} from './apps.repository.ts';

export interface AppsServiceDeps {
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

/** 16 characters of base32 (80 random bits), like project ids: an application id names, it does not guard. */
export function newApplicationId(): string {
  return randomBase32(10);
}

/** 128 random bits, base64url: the client id is public but must not be guessable or enumerable. */
export function newClientId(): string {
  return randomBytes(16).toString('base64url');
}

/** 256 random bits from the CSPRNG, base64url: the client secret, answered once and never stored. */
export function newClientSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * A client secret as stored before issue 22: its SHA-256, hex. A fast hash was enough against
 * guessing (a 256-bit random secret cannot be guessed, nor its hash reversed, however fast the hash);
 * it is still accepted, then stored keyed. No slow password hash is needed for either form.
 */
function legacyHash(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** Stored keyed hashes start so; a legacy SHA-256 is 64 hex digits. */
const KEYED = 'k1:';

// Longer presented values are refused before hashing: no real id or secret comes near this.
const MAX_CREDENTIAL_LENGTH = 512;

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
const disabledApp = (what: string) => new DomainError('conflict', `The application is disabled; enable it before ${what}`);

export function createAppsService({ db, clock, audit, issuerAddress, secretBox, refusedHost = () => false }: AppsServiceDeps) {
  /**
   * A client secret as stored: an HMAC under the master key (docs/decisions/0028), so a copy of the
   * database alone cannot even check a guess against it.
   */
  const storedHash = (secret: string): string => `${KEYED}${secretBox.hmac('client-secret', secret)}`;
  // Compared against when the client id is unknown, so an unknown client takes the same work as a known one.
  const noSecretHash = storedHash(randomBytes(32).toString('base64url'));

  /** The keys as answered: as stored, with the project's issuer address and, once, the new secret. */
  async function answer(tx: Db, keys: Versioned<StoredApplicationKeys>, projectId: string, clientSecret = ''): Promise<Versioned<ApplicationKeys>> {
    return { value: { ...keys.value, clientSecret, issuer: await issuerAddress(tx, projectId) }, version: keys.version };
  }

  /**
   * Inside a transaction, before any write to an application: the project must be enabled (spec §4:
   * changes to a closed project's apps are blocked) and stays so until commit; then the
   * application row, locked. Project first, then application: the order every writer takes.
   */
  async function lockForWrite(tx: Db, applicationId: string): Promise<Versioned<Application>> {
    const projectId = await findProjectOfApplication(tx, applicationId);
    if (!projectId) throw notFound();
    const project = await lockProjectForAppWrite(tx, projectId);
    if (!project) throw notFound();
    if (!project.enabled) throw projectClosed();
    const found = await findApplication(tx, applicationId, { forUpdate: true });
    if (!found) throw notFound();
    return found;
  }

  /** The keys of a locked application, locked too; checked against If-Match. */
  async function lockKeys(tx: Db, applicationId: string, ifMatch: number | null): Promise<Versioned<StoredApplicationKeys>> {
    const keys = await findKeys(tx, applicationId, { forUpdate: true });
    if (!keys) throw noKeys();
    checkVersion(keys.version, ifMatch, "application's keys");
    return keys;
  }

  return {
    /** For the endpoint guard: the project of an application, or null (answered as 404). */
    projectOfApplication: (applicationId: string) => findProjectOfApplication(db, applicationId),

    /** spec §7 "GET projects/{project}/apps": filtered, sorted (name ascending by default), paged. */
    async listApps(projectId: string, query: ApplicationListQuery): Promise<{ total: number; list: Application[] }> {
      await freshCounts(db, projectId);
      return applicationsTable.page(db, projectId, query);
    },

    /** spec §7 "POST apps": the project comes from the body (the guard has checked it). */
    async createApp(
      actor: Actor,
      input: { platformCode: PlatformCode; applicationType: ApplicationType; name: string; url: string; projectId: string },
    ): Promise<{ id: string; projectId: string; keysEndpoint: string }> {
      return db.transaction(async (tx) => {
        const project = await lockProjectForAppWrite(tx, input.projectId);
        if (!project) throw notFound();
        if (!project.enabled) throw projectClosed();
        const { value: created } = await insertApplication(tx, {
          id: newApplicationId(),
          projectId: input.projectId,
          name: input.name,
          platformCode: input.platformCode,
          applicationType: input.applicationType,
          url: input.url,
          now: clock.now(),
        });
        await audit(tx, {
          actor,
          action: 'app.create',
          result: 'created',
          projectId: input.projectId,
          changes: changesBetween(null, {
            name: created.name,
            platformCode: created.platformCode,
            applicationType: created.applicationType,
            url: input.url,
          }),
          details: { applicationId: created.id, name: created.name },
        });
        return { id: created.id, projectId: created.projectId, keysEndpoint: created.keysEndpoint };
      });
    },

    async getApp(applicationId: string): Promise<Versioned<Application>> {
      const found = await findApplication(db, applicationId);
      if (!found) throw notFound();
      return found;
    },

    /**
     * spec §7 "PUT apps/{application}": rename, change the logo, disable or enable — each one a
     * save. spec §4: save is disabled while the app is disabled, so a disabled application takes
     * only "enable" (a repeated "disable" that changes nothing is answered as it is).
     */
    async updateApp(
      actor: Actor,
      applicationId: string,
      update: { name: string; logoUrl: string; enabled: boolean },
      ifMatch: number | null,
    ): Promise<Versioned<Application>> {
      return db.transaction(async (tx) => {
        const current = await lockForWrite(tx, applicationId);
        const before = current.value;
        checkVersion(current.version, ifMatch, 'application');
        if (!canSaveApplication(before, { enabled: true }) && !update.enabled) {
          if (update.name === before.name && update.logoUrl === before.logoUrl) return current;
          throw disabledApp('changing it');
        }
        const saved = await saveApplication(tx, { id: applicationId, ...update, now: clock.now() });
        const disabling = before.enabled && !saved.value.enabled;
        const enabling = !before.enabled && saved.value.enabled;
        await audit(tx, {
          actor,
          action: disabling ? 'app.disable' : enabling ? 'app.enable' : 'app.update',
          result: disabling ? 'disabled' : 'success',
          projectId: before.projectId,
          changes: changesBetween(
            { name: before.name, logoUrl: before.logoUrl, enabled: before.enabled },
            { name: saved.value.name, logoUrl: saved.value.logoUrl, enabled: saved.value.enabled },
          ),
          details: { applicationId, name: saved.value.name, version: saved.version },
        });
        return saved;
      });
    },

    /**
     * spec §7 "POST {keysEndpoint}" after creating the app: the client id and the first secret,
     * answered this once. An application has one set of keys; asking again is 409 — a new secret
     * is "generate new keys".
     */
    async createKeys(actor: Actor, applicationId: string, registration: KeysRegistration): Promise<Versioned<ApplicationKeys>> {
      return db.transaction(async (tx) => {
        const { value: application } = await lockForWrite(tx, applicationId);
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
        return answer(tx, keys, application.projectId, clientSecret);
      });
    },

    /** spec §7 "GET {keysEndpoint}": never the secret (it is not kept). */
    async getKeys(applicationId: string): Promise<Versioned<ApplicationKeys>> {
      const [keys, projectId] = await Promise.all([findKeys(db, applicationId), findProjectOfApplication(db, applicationId)]);
      if (!keys || !projectId) throw noKeys();
      return answer(db, keys, projectId);
    },

    /** spec §7 "PUT {keysEndpoint}": replaces the redirect URIs, part of the settings save (spec §4). */
    async updateKeys(
      actor: Actor,
      applicationId: string,
      registration: KeysRegistration,
      ifMatch: number | null,
    ): Promise<Versioned<ApplicationKeys>> {
      return db.transaction(async (tx) => {
        const { value: application } = await lockForWrite(tx, applicationId);
        const current = await lockKeys(tx, applicationId, ifMatch);
        if (!canSaveApplication(application, { enabled: true })) throw disabledApp('changing it');
        checkRedirectsOf(application, registration, refusedHost);
        const keys = await saveKeys(tx, {
          applicationId,
          redirectUris: registration.redirectURI,
          postLogoutRedirectUris: registration.postLogoutRedirectURI ?? current.value.postLogoutRedirectURI,
          backchannelLogoutUri: backchannelOf(registration, current.value),
          now: clock.now(),
        });
        await audit(tx, {
          actor,
          action: 'app.keys.update',
          result: 'success',
          projectId: application.projectId,
          changes: changesBetween(registrationOf(current.value), registrationOf(keys.value)),
          details: { applicationId, before: registrationOf(current.value), after: registrationOf(keys.value) },
        });
        return answer(tx, keys, application.projectId);
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
        const { value: application } = await lockForWrite(tx, applicationId);
        const current = await lockKeys(tx, applicationId, ifMatch);
        if (!canGenerateKeys(application, { enabled: true })) throw disabledApp('generating new keys');
        checkRedirectsOf(application, registration, refusedHost);
        const clientSecret = newClientSecret();
        const keys = await saveKeys(tx, {
          applicationId,
          redirectUris: registration.redirectURI,
          postLogoutRedirectUris: registration.postLogoutRedirectURI ?? current.value.postLogoutRedirectURI,
          backchannelLogoutUri: backchannelOf(registration, current.value),
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
        return answer(tx, keys, application.projectId, clientSecret);
      });
    },

    /**
     * For the token endpoint: true only for the current secret of an enabled application in an
     * enabled project (spec §4: disabled apps and closed projects reject authentication). The
     * hashes are compared in constant time.
     */
    async verifyClientCredentials(clientId: string, clientSecret: string, found?: Client | null): Promise<boolean> {
      if (typeof clientId !== 'string' || typeof clientSecret !== 'string') return false;
      if (clientId.length > MAX_CREDENTIAL_LENGTH || clientSecret.length > MAX_CREDENTIAL_LENGTH) return false;
      // `found`: the client as this request already read it (the provider looks it up first).
      const client = clientId === '' ? null : found !== undefined ? found : await findClient(db, clientId);
      const stored = client?.clientSecretHash ?? noSecretHash;
      let same: boolean;
      if (stored.startsWith(KEYED)) {
        same = safeEqual(stored, storedHash(clientSecret));
      } else {
        // A secret stored before keyed hashes: checked as it was, then stored keyed from now on.
        const legacy = Buffer.from(stored, 'hex');
        const presented = legacyHash(clientSecret);
        same = legacy.length === presented.length && timingSafeEqual(legacy, presented);
        if (same) await rehashClientSecret(db, { clientId, from: stored, to: storedHash(clientSecret) });
      }
      return same && client !== null && client.applicationEnabled && client.projectEnabled;
    },

    /** For a project's issuer: the client behind a client id (its project, redirect URIs and state), or null. */
    async findClient(clientId: string): Promise<Client | null> {
      if (typeof clientId !== 'string' || clientId === '' || clientId.length > MAX_CREDENTIAL_LENGTH) return null;
      return findClient(db, clientId);
    },

    /**
     * For the authorization endpoint: is `uri` one of the client's registered redirect URIs? The
     * match is exact (spec §2, `redirectUriMatches`): no prefix, wildcard or normalisation. Whether
     * the client may sign anyone in at all is verifyClientCredentials' and the caller's concern.
     */

    async isRedirectUriAllowed(clientId: string, uri: string): Promise<boolean> {
      if (typeof clientId !== 'string' || typeof uri !== 'string' || clientId === '' || clientId.length > MAX_CREDENTIAL_LENGTH) return false;
      const client = await findClient(db, clientId);
      return client !== null && redirectUriMatches(client.redirectUris, uri);
    },
  };
}

export type AppsService = ReturnType<typeof createAppsService>;
