import { issuerSigningKeys, listSigningKeys, rotateSigningKey } from '../../oidc/keys.ts';
import {
  applyMeta,
  changedBillingFields,
  changedLockedFields,
  DomainError,
  domainHost,
  signingKeyGraceSeconds,
  type SigningKeys,
  domainOrigin,
  globalPermission,
  guards,
  hasAnyPermission,
  newProjectSettings,
  normalizeProjectSettings,
  keepStoredSecrets,
  projectPermission,
  redactProjectSecrets,
  isAssociationFile,
  type AssociationField,
  type FieldIssue,
  type Issuer,
  type Project,
  type ProjectMeta,
  type ProjectSettings,
  type ProjectSummary,
  type ProjectUpdate,
} from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import { randomBase32, type SecretBox } from '../../crypto.ts';
import type { Db } from '../../db/db.ts';
import { notFound, projectClosed } from '../../errors.ts';
import { checkVersion, type Versioned } from '../../http/etag.ts';
import type { Actor } from '../../http/actor.ts';
import { findAccountById, grantPermissions, listPermissions, lockAccount } from '../accounts/accounts.repository.ts';
import type { AuditHook } from '../audit/audit.service.ts';
import { changesBetween } from '../audit/changes.ts';
import {
  countProjectsCreatedBy,
  findIssuer,
  findProject,
  insertProject,
  listAllProjects,
  listProjectsOfAccount,
  projectExists,
  replaceProjectHosts,
  saveIssuer,
  saveProject,
} from './projects.repository.ts';
import { sealPushKeys } from './push-keys.ts';

export interface ProjectsServiceDeps {
  db: Db;
  clock: Clock;
  audit: AuditHook;
  /** How many projects an account without a global permission may create (config PROJECTS_PER_ACCOUNT). */
  projectsPerAccount: number;
  /** Seals the push service-account private key before it is stored (issue 7: secrets at rest), and the issuer's signing keys (issue 22). */
  secretBox: SecretBox;
  /**
   * The URL of a project's OpenID Connect issuer: the read-only `address` of its issuer settings
   * (issue 8), under PUBLIC_URL or at its custom domain's origin (docs/decisions/0016).
   */
  issuerAddress: (projectId: string, customOrigin: string | null) => string;
}

/** 16 characters of base32: 80 random bits, safe in URLs and in cst:{project}:… strings. */
export function newProjectId(): string {
  return randomBase32(10);
}

/** What a caller reads: the project without its write-only secrets. */
function view(project: Versioned<Project>): Versioned<Project> {
  return { value: redactProjectSecrets(project.value), version: project.version };
}

function forbiddenFields(fields: string[], why: string): DomainError {
  return new DomainError(
    'forbidden',
    `${why} may change ${fields.join(', ')}`,
    fields.map((field) => ({ field, code: 'forbidden', message: `${why} may change this field` })),
  );
}

const DOMAIN_FIELDS = ['customDomain', 'customMobileDomain'] as const;
const ASSOCIATION_FIELDS: AssociationField[] = ['associationIOS', 'associationAndroid'];

/**
 * spec §3 domains and association files, checked when they change (a value stored before these
 * checks existed does not block other edits): a domain names an origin alone and not the server's
 * own host; an association file is the JSON document its platform reads (docs/decisions/0016).
 */
function checkDomainSettings(before: ProjectSettings, after: ProjectSettings, serverHost: string): void {
  const issues: FieldIssue[] = [];
  for (const field of DOMAIN_FIELDS) {
    if (after[field] === before[field] || after[field] === '') continue;
    const host = domainHost(after[field]);
    if (host === null) {
      issues.push({ field, code: 'validation.invalid_url', message: 'Enter the address of a host alone, e.g. https://auth.example.com' });
    } else if (host === serverHost) {
      issues.push({ field, code: 'validation.invalid_value', message: "This is this server's own address; enter a domain of the project's own" });
    }
  }
  for (const field of ASSOCIATION_FIELDS) {
    if (after[field] === before[field] || after[field] === '' || isAssociationFile(field, after[field])) continue;
    const what =
      field === 'associationIOS' ? 'a JSON object of at most 128 KB (apple-app-site-association)' : 'a JSON array of statements (assetlinks.json)';
    issues.push({ field, code: 'validation.invalid_value', message: `Paste the file as it should be served: ${what}` });
  }
  if (issues.length > 0) throw new DomainError('validation_failed', issues.map((i) => i.message).join('; '), issues);
}

/**
 * Inside the update's transaction: the project is served at the hosts its domains name, unless
 * another project holds one of them (409, nothing changed). Only when a domain changed.
 */
async function claimDomains(tx: Db, projectId: string, before: ProjectSettings, after: ProjectSettings): Promise<void> {
  if (DOMAIN_FIELDS.every((field) => before[field] === after[field])) return;
  const issuerOrigin = domainOrigin(after.customDomain);
  const hosts = new Map<string, string | null>();
  const mobileHost = domainHost(after.customMobileDomain);
  if (mobileHost !== null) hosts.set(mobileHost, null);
  // The custom domain's host serves the issuer (and the association files); one row when both name it.
  if (issuerOrigin !== null) hosts.set(new URL(issuerOrigin).host, issuerOrigin);
  const taken = await replaceProjectHosts(
    tx,
    projectId,
    [...hosts].map(([host, origin]) => ({ host, origin })),
  );
  if (taken.length === 0) return;
  const issues: FieldIssue[] = DOMAIN_FIELDS.filter((field) => {
    const host = domainHost(after[field]);
    return host !== null && taken.includes(host);
  }).map((field) => ({ field, code: 'conflict', message: 'Another project uses this domain' }));
  throw new DomainError('conflict', `Another project uses ${taken.join(', ')}`, issues);
}

function settingsOf(project: Project): ProjectSettings {
  const { id: _id, enabled: _enabled, ...settings } = project;
  return settings;
}

/** The push service-account keys, sealed as stored: compared, never recorded (docs/decisions/0014 "Management actions"). */
const PROJECT_SECRETS = ['pushOptions.platforms.*.config'];

/** The fields closing and reopening change (spec §4). */
function metaOf(project: Project): Pick<Project, 'enabled' | 'purchaseOrder' | 'referrer'> {
  return { enabled: project.enabled, purchaseOrder: project.purchaseOrder, referrer: project.referrer };
}

export function createProjectsService({ db, clock, audit, projectsPerAccount, secretBox, issuerAddress }: ProjectsServiceDeps) {
  // issuerAddress answers an address on PUBLIC_URL's host: the one host no project may claim.
  const serverHost = new URL(issuerAddress('', null)).host;
  const withAddress = (projectId: string, issuer: Versioned<Issuer>, customOrigin: string | null): Versioned<Issuer> => ({
    value: { ...issuer.value, address: issuerAddress(projectId, customOrigin) },
    version: issuer.version,
  });

  /** Inside a transaction: the project row, locked until the transaction ends. */
  async function lockForWrite(tx: Db, projectId: string): Promise<Versioned<Project>> {
    const found = await findProject(tx, projectId, { forUpdate: true });
    if (!found) throw notFound();
    return found;
  }

  return {
    projectExists: (projectId: string) => projectExists(db, projectId),

    /**
     * spec §7 "GET accounts/{accountId}/projects": one's own list, or anyone's for a global
     * accounts manager. Any global permission lists every project (docs/decisions/0004).
     */
    async listAccountProjects(actor: Actor, accountId: string): Promise<ProjectSummary[]> {
      let permissions = actor.permissions;
      if (accountId !== actor.accountId) {
        if (!hasAnyPermission(actor.permissions, [globalPermission('accounts')])) {
          throw new DomainError('forbidden', 'You may list only your own projects');
        }
        const account = await findAccountById(db, accountId);
        if (!account) throw notFound();
        permissions = await listPermissions(db, accountId);
      }
      if (hasAnyPermission(permissions, guards.globalUnlock)) return listAllProjects(db);
      return listProjectsOfAccount(db, accountId);
    },

    /**
     * spec §7 "POST projects": any signed-in account (self-service sign-up); the creator is granted
     * cst:{project}:*. An account without a global permission may create at most
     * `projectsPerAccount` projects — counted under a lock on the account, so parallel requests
     * cannot pass the cap together. The creator's email recorded is the caller's own.
     */
    async createProject(actor: Actor, input: { name: string; pinLength: number; email: string }): Promise<{ id: string }> {
      // A service account belongs to its project (issue 12): it would own the projects it made,
      // beyond what its project's administrators can see or take back.
      if (actor.via === 'bearer') throw new DomainError('forbidden', 'A service account cannot create projects');
      return db.transaction(async (tx) => {
        if (!hasAnyPermission(actor.permissions, guards.globalUnlock)) {
          await lockAccount(tx, actor.accountId);
          if ((await countProjectsCreatedBy(tx, actor.accountId)) >= projectsPerAccount) {
            throw new DomainError(
              'forbidden',
              `You have created the most projects an account may create (${projectsPerAccount}); ask an administrator of all projects for more`,
            );
          }
        }
        const id = newProjectId();
        const settings = normalizeProjectSettings(newProjectSettings(input.name, input.pinLength));
        const email = (actor.email ?? input.email).toLowerCase();
        await insertProject(tx, { id, email, createdBy: actor.accountId, settings, now: clock.now() });
        await grantPermissions(tx, actor.accountId, [projectPermission(id, '*')]);
        await audit(tx, {
          actor,
          action: 'project.create',
          result: 'created',
          projectId: id,
          changes: changesBetween(null, { name: settings.name, pinLength: settings.pinLength, email }),
          details: { granted: [projectPermission(id, '*')] },
        });
        return { id };
      });
    },

    async getProject(projectId: string): Promise<Versioned<Project>> {
      const found = await findProject(db, projectId);
      if (!found) throw notFound();
      return view(found);
    },

    /**
     * spec §7 "PUT projects/{id}" with the whole project. spec §4: a closed project takes no
     * changes; derived fields are normalised; spec §6 "Global unlock": domains, confirmation URL
     * and association files change only for a global permission. `enabled` changes only via /meta.
     */
    async updateProject(actor: Actor, projectId: string, update: ProjectUpdate, ifMatch: number | null): Promise<Versioned<Project>> {
      return db.transaction(async (tx) => {
        const current = await lockForWrite(tx, projectId);
        if (!current.value.enabled) throw projectClosed();
        checkVersion(current.version, ifMatch, 'project');
        const { id: _id, enabled: _enabled, ...requested } = update;
        const before = settingsOf(current.value);
        const settings = keepStoredSecrets(before, sealPushKeys(secretBox, projectId, normalizeProjectSettings(requested)));
        const locked = changedLockedFields(before, settings);
        if (locked.length > 0 && !hasAnyPermission(actor.permissions, guards.globalUnlock)) {
          throw forbiddenFields(locked, 'Only an account with a global permission');
        }
        const billing = changedBillingFields(before, settings);
        if (billing.length > 0 && !hasAnyPermission(actor.permissions, guards.reopenProject)) {
          throw forbiddenFields(billing, 'Only an administrator of all projects');
        }
        checkDomainSettings(before, settings, serverHost);
        await claimDomains(tx, projectId, before, settings);
        const saved = await saveProject(tx, { id: projectId, enabled: true, settings, now: clock.now() });
        await audit(tx, {
          actor,
          action: 'project.update',
          result: 'success',
          projectId,
          changes: changesBetween(before, settings, PROJECT_SECRETS),
          details: { version: saved.version },
        });
        return view(saved);
      });
    },

    /**
     * spec §7 "PUT projects/{id}/meta"; spec §4: closing sets enabled false and clears purchaseOrder
     * and referrer. Reopening is not offered to project admins, only to guards.reopenProject.
     */
    async updateMeta(actor: Actor, projectId: string, meta: ProjectMeta, ifMatch: number | null): Promise<Versioned<Project>> {
      return db.transaction(async (tx) => {
        const current = await lockForWrite(tx, projectId);
        const reopening = !current.value.enabled && meta.enabled;
        // Project admins may only close; reopening and the billing fields (purchaseOrder,
        // referrer) belong to an administrator of all projects.
        if (meta.enabled && !hasAnyPermission(actor.permissions, guards.reopenProject)) {
          throw new DomainError('forbidden', 'Only an administrator of all projects may reopen a project or change its billing details');
        }
        if (!current.value.enabled && !meta.enabled) throw projectClosed();
        checkVersion(current.version, ifMatch, 'project');
        const next = applyMeta(current.value, meta);
        const saved = await saveProject(tx, { id: projectId, enabled: next.enabled, settings: settingsOf(next), now: clock.now() });
        await audit(tx, {
          actor,
          action: !meta.enabled ? 'project.close' : reopening ? 'project.reopen' : 'project.meta',
          result: !meta.enabled ? 'disabled' : 'success',
          projectId,
          changes: changesBetween(metaOf(current.value), metaOf(next)),
          details: { version: saved.version },
        });
        return view(saved);
      });
    },

    async getIssuer(projectId: string): Promise<Versioned<Issuer>> {
      const found = await findIssuer(db, projectId);
      if (!found) throw notFound();
      return withAddress(projectId, found, found.customOrigin);
    },

    /** spec §7 "PUT projects/{project}/issuer"; refused while the project is closed (spec §4). */
    async updateIssuer(actor: Actor, projectId: string, issuer: Issuer, ifMatch: number | null): Promise<Versioned<Issuer>> {
      return db.transaction(async (tx) => {
        const current = await lockForWrite(tx, projectId);
        if (!current.value.enabled) throw projectClosed();
        checkVersion(current.version, ifMatch, 'project');
        // The address is the server's to say, not stored (issue 8: read-only).
        const { address: _address, ...before } = (await findIssuer(tx, projectId))?.value ?? {};
        const saved = await saveIssuer(tx, { id: projectId, issuer: { ...issuer, address: '' }, now: clock.now() });
        const { address: _saved, ...after } = saved.value;
        await audit(tx, {
          actor,
          action: 'issuer.update',
          result: 'success',
          projectId,
          changes: changesBetween(before, after),
          details: { version: saved.version },
        });
        return withAddress(projectId, saved, (await findIssuer(tx, projectId))?.customOrigin ?? null);
      });
    },

    /** Issue 22: the issuer's signing keys, the one signing and those still published. */
    async getSigningKeys(projectId: string): Promise<SigningKeys> {
      const issuer = await findIssuer(db, projectId);
      if (!issuer) throw notFound();
      const alg = issuer.value.id_token_signing_alg;
      // As the issuer reads them (its key made on first use, a left algorithm's set retiring), then listed.
      await issuerSigningKeys(db, secretBox, projectId, alg, signingKeyGraceSeconds(issuer.value));
      return { keys: await listSigningKeys(db, secretBox, projectId, alg) };
    },

    /**
     * Issue 22: a new signing key signs at once; the previous stays in the JWKS for the grace period
     * (signingKeyGraceSeconds). The project's version moves, so every instance rebuilds its issuer at
     * its next request; the settings history records the key ids. Refused while the project is closed.
     */
    async rotateSigningKey(actor: Actor, projectId: string): Promise<SigningKeys> {
      return db.transaction(async (tx) => {
        const current = await lockForWrite(tx, projectId);
        if (!current.value.enabled) throw projectClosed();
        const issuer = (await findIssuer(tx, projectId))?.value;
        if (!issuer) throw notFound();
        const alg = issuer.id_token_signing_alg;
        const { previous, current: next } = await rotateSigningKey(tx, secretBox, projectId, alg, signingKeyGraceSeconds(issuer));
        const saved = await saveIssuer(tx, { id: projectId, issuer, now: clock.now() });
        await audit(tx, {
          actor,
          action: 'issuer.keys.rotate',
          result: 'success',
          projectId,
          changes: { signing_key: { before: previous, after: next } },
          details: { version: saved.version, alg },
        });
        return { keys: await listSigningKeys(tx, secretBox, projectId, alg) };
      });
    },
  };
}

export type ProjectsService = ReturnType<typeof createProjectsService>;
