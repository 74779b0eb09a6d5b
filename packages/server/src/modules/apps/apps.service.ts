import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  canGenerateKeys,
  canSaveApplication,
  DomainError,
  redirectUriMatches,
  type Application,
  type ApplicationKeys,
  type ApplicationListQuery,
  type PlatformCode,
} from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import { randomBase32 } from '../../crypto.ts';
import { isUniqueViolation, type Db } from '../../db/db.ts';
import { HttpDomainError } from '../../errors.ts';
import type { Actor } from '../accounts/actor.ts';
import type { AuditHook } from '../audit/audit.service.ts';
import type { Versioned } from '../projects/projects.service.ts';
import {
  findApplication,
  findClient,
  findKeys,
  findProjectOfApplication,
  insertApplication,
  insertKeys,
  listApplications,
  lockProjectForAppWrite,
  rotateSecret,
  saveApplication,
  saveRedirectUris,
  type ApplicationRecord,
  type KeysRecord,
} from './apps.repository.ts';

export interface AppsServiceDeps {
  db: Db;
  clock: Clock;
  audit: AuditHook;
}

/** spec §3: the keys endpoints are paths under the API base. */
export const keysEndpointOf = (id: string) => `/apps/${id}/keys`;
export const generateNewKeysEndpointOf = (id: string) => `/apps/${id}/keys/generate`;

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
 * The stored form of a client secret. A plain SHA-256 is enough here: a slow password hash (scrypt,
 * argon2) protects low-entropy secrets chosen by people against guessing; a 256-bit random secret
 * cannot be guessed, and its hash cannot be reversed, however fast the hash is.
 */
function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

// Compared against when the client id is unknown, so an unknown client takes the same work as a
// wrong secret.
const NO_SECRET_HASH = hashSecret(randomBytes(32).toString('base64url'));
// Longer presented values are refused before hashing: no real id or secret comes near this.
const MAX_CREDENTIAL_LENGTH = 512;

function toApplication(record: ApplicationRecord): Application {
  return {
    id: record.id,
    projectId: record.projectId,
    name: record.name,
    platformCode: record.platformCode,
    enabled: record.enabled,
    logoUrl: record.logoUrl,
    keysEndpoint: keysEndpointOf(record.id),
    generateNewKeysEndpoint: generateNewKeysEndpointOf(record.id),
  };
}

/** The secret is filled only in the answer that created it (spec §4 "One-time secrets"). */
function toKeys(record: KeysRecord, clientSecret = ''): ApplicationKeys {
  return { clientId: record.clientId, clientSecret, redirectURI: record.redirectUris };
}

const notFound = () => new DomainError('not_found', 'Not found');
const noKeys = () => new DomainError('not_found', 'This application has no keys yet');
const closed = () => new DomainError('project_closed', 'The project is closed; changes cannot be made while it is disabled');
const disabledApp = (what: string) => new DomainError('conflict', `The application is disabled; enable it before ${what}`);

export function createAppsService({ db, clock, audit }: AppsServiceDeps) {
  /**
   * Inside a transaction, before any write to an application: the project must be enabled (spec §4:
   * changes to a closed project's apps are blocked) and stays so until commit; then the
   * application row, locked. Project first, then application: the order every writer takes.
   */
  async function lockForWrite(tx: Db, applicationId: string): Promise<ApplicationRecord> {
    const projectId = await findProjectOfApplication(tx, applicationId);
    if (!projectId) throw notFound();
    const project = await lockProjectForAppWrite(tx, projectId);
    if (!project) throw notFound();
    if (!project.enabled) throw closed();
    const record = await findApplication(tx, applicationId, { forUpdate: true });
    if (!record) throw notFound();
    return record;
  }

  function checkVersion(record: ApplicationRecord, ifMatch: number | null): void {
    if (ifMatch !== null && ifMatch !== record.version) {
      throw new HttpDomainError('conflict', 'The application was changed by someone else; reload and try again', 412);
    }
  }

  return {
    /** For the endpoint guard: the project of an application, or null (answered as 404). */
    projectOfApplication: (applicationId: string) => findProjectOfApplication(db, applicationId),

    /** spec §7 "GET projects/{project}/apps": filtered, sorted (name ascending by default), paged. */
    async listApps(projectId: string, query: ApplicationListQuery): Promise<{ total: number; list: Application[] }> {
      const page = await listApplications(db, projectId, query);
      return { total: page.total, list: page.rows.map(toApplication) };
    },

    /** spec §7 "POST apps": the project comes from the body (the guard has checked it). */
    async createApp(
      actor: Actor,
      input: { platformCode: PlatformCode; name: string; url: string; projectId: string },
    ): Promise<{ id: string; projectId: string; keysEndpoint: string }> {
      return db.transaction(async (tx) => {
        const project = await lockProjectForAppWrite(tx, input.projectId);
        if (!project) throw notFound();
        if (!project.enabled) throw closed();
        const created = await insertApplication(tx, {
          id: newApplicationId(),
          projectId: input.projectId,
          name: input.name,
          platformCode: input.platformCode,
          url: input.url,
          now: clock.now(),
        });
        await audit(tx, {
          actor,
          action: 'app.create',
          projectId: input.projectId,
          details: { applicationId: created.id, name: created.name },
        });
        return { id: created.id, projectId: created.projectId, keysEndpoint: keysEndpointOf(created.id) };
      });
    },

    async getApp(applicationId: string): Promise<Versioned<Application>> {
      const record = await findApplication(db, applicationId);
      if (!record) throw notFound();
      return { value: toApplication(record), version: record.version };
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
        const record = await lockForWrite(tx, applicationId);
        checkVersion(record, ifMatch);
        if (!canSaveApplication(record, { enabled: true }) && !update.enabled) {
          if (update.name === record.name && update.logoUrl === record.logoUrl) {
            return { value: toApplication(record), version: record.version };
          }
          throw disabledApp('changing it');
        }
        const saved = await saveApplication(tx, { id: applicationId, ...update, now: clock.now() });
        const action = record.enabled && !saved.enabled ? 'app.disable' : !record.enabled && saved.enabled ? 'app.enable' : 'app.update';
        await audit(tx, {
          actor,
          action,
          projectId: record.projectId,
          details: { applicationId, name: saved.name, version: saved.version },
        });
        return { value: toApplication(saved), version: saved.version };
      });
    },

    /**
     * spec §7 "POST {keysEndpoint}" after creating the app: the client id and the first secret,
     * answered this once. An application has one set of keys; asking again is 409 — a new secret
     * is "generate new keys".
     */
    async createKeys(actor: Actor, applicationId: string, redirectUris: string[]): Promise<ApplicationKeys> {
      return db.transaction(async (tx) => {
        const record = await lockForWrite(tx, applicationId);
        if (!canGenerateKeys(record, { enabled: true })) throw disabledApp('creating its keys');
        if (await findKeys(tx, applicationId)) {
          throw new DomainError('conflict', 'This application already has keys; generate new keys to replace the secret');
        }
        const clientSecret = newClientSecret();
        let keys: KeysRecord;
        try {
          keys = await insertKeys(tx, {
            applicationId,
            clientId: newClientId(),
            clientSecretHash: hashSecret(clientSecret).toString('hex'),
            redirectUris,
            now: clock.now(),
          });
        } catch (error) {
          if (isUniqueViolation(error)) throw new DomainError('conflict', 'This application already has keys');
          throw error;
        }
        await audit(tx, {
          actor,
          action: 'app.keys.create',
          projectId: record.projectId,
          details: { applicationId, clientId: keys.clientId, redirectURI: keys.redirectUris },
        });
        return toKeys(keys, clientSecret);
      });
    },

    /** spec §7 "GET {keysEndpoint}": never the secret (it is not kept). */
    async getKeys(applicationId: string): Promise<ApplicationKeys> {
      const keys = await findKeys(db, applicationId);
      if (!keys) throw noKeys();
      return toKeys(keys);
    },

    /** spec §7 "PUT {keysEndpoint}": replaces the redirect URIs, part of the settings save (spec §4). */
    async updateKeys(actor: Actor, applicationId: string, redirectUris: string[]): Promise<ApplicationKeys> {
      return db.transaction(async (tx) => {
        const record = await lockForWrite(tx, applicationId);
        if (!(await findKeys(tx, applicationId))) throw noKeys();
        if (!canSaveApplication(record, { enabled: true })) throw disabledApp('changing it');
        const keys = await saveRedirectUris(tx, applicationId, redirectUris);
        await audit(tx, {
          actor,
          action: 'app.keys.update',
          projectId: record.projectId,
          details: { applicationId, redirectURI: keys.redirectUris },
        });
        return toKeys(keys);
      });
    },

    /**
     * spec §7 "POST {generateNewKeysEndpoint}"; spec §4: only while enabled, and the new keys
     * invalidate the old ones — the old hash is overwritten in this transaction. The client id stays.
     */
    async generateKeys(actor: Actor, applicationId: string, redirectUris: string[]): Promise<ApplicationKeys> {
      return db.transaction(async (tx) => {
        const record = await lockForWrite(tx, applicationId);
        const current = await findKeys(tx, applicationId);
        if (!current) throw noKeys();
        if (!canGenerateKeys(record, { enabled: true })) throw disabledApp('generating new keys');
        // The body carries the redirect URIs the caller saw: if a colleague changed them since,
        // generating must not silently put the old list back (CONVENTIONS "Data").
        if (redirectUris.length !== current.redirectUris.length || redirectUris.some((u, i) => u !== current.redirectUris[i])) {
          throw new HttpDomainError('conflict', 'The redirect URLs were changed by someone else; reload and try again', 412);
        }
        const clientSecret = newClientSecret();
        const keys = await rotateSecret(tx, {
          applicationId,
          clientSecretHash: hashSecret(clientSecret).toString('hex'),
          redirectUris,
          now: clock.now(),
        });
        await audit(tx, {
          actor,
          action: 'app.keys.generate',
          projectId: record.projectId,
          details: { applicationId, clientId: keys.clientId },
        });
        return toKeys(keys, clientSecret);
      });
    },

    /**
     * For the token endpoint: true only for the current secret of an enabled application in an
     * enabled project (spec §4: disabled apps and closed projects reject authentication). The
     * hashes are compared in constant time.
     */
    async verifyClientCredentials(clientId: string, clientSecret: string): Promise<boolean> {
      if (typeof clientId !== 'string' || typeof clientSecret !== 'string') return false;
      if (clientId.length > MAX_CREDENTIAL_LENGTH || clientSecret.length > MAX_CREDENTIAL_LENGTH) return false;
      const client = clientId === '' ? null : await findClient(db, clientId);
      const stored = client ? Buffer.from(client.clientSecretHash, 'hex') : NO_SECRET_HASH;
      const presented = hashSecret(clientSecret);
      const same = stored.length === presented.length && timingSafeEqual(stored, presented);
      return same && client !== null && client.applicationEnabled && client.projectEnabled;
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
