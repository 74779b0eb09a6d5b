import {
  changedBillingFields,
  changedLockedFields,
  DomainError,
  domainHost,
  domainOrigin,
  guards,
  hasAnyPermission,
  isAssociationFile,
  keepStoredSecrets,
  normalizeProjectSettings,
  type AssociationField,
  type FieldIssue,
  type Project,
  type ProjectSettings,
  type ProjectUpdate,
} from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import type { SecretBox } from '../../crypto.ts';
import type { Db } from '../../db/db.ts';
import { projectClosed } from '../../errors.ts';
import { checkVersion, type Versioned } from '../../http/etag.ts';
import type { Actor } from '../../http/actor.ts';
import type { AuditHook } from '../audit/audit.service.ts';
import { changesBetween } from '../audit/changes.ts';
import { lockProjectForWrite, settingsOf, view } from './project.ts';
import { replaceProjectHosts, saveProject } from './projects.repository.ts';
import { sealPushKeys } from './push-keys.ts';

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
function checkDomainSettings(before: ProjectSettings, after: ProjectSettings, serverHost: string, issuerDomain: string | null): void {
  const issues: FieldIssue[] = [];
  for (const field of DOMAIN_FIELDS) {
    if (after[field] === before[field] || after[field] === '') continue;
    const host = domainHost(after[field]);
    if (host === null) {
      issues.push({ field, code: 'validation.invalid_url', message: 'Enter the address of a host alone, e.g. https://auth.example.com' });
    } else if (host === serverHost) {
      issues.push({ field, code: 'validation.invalid_value', message: "This is this server's own address; enter a domain of the project's own" });
    } else if (issuerDomain !== null && underDomain(host, issuerDomain)) {
      // docs/decisions/0047: the projects' own hosts live there; one project's domain may not take another's.
      issues.push({
        field,
        code: 'validation.invalid_value',
        message: "This is under this server's issuer domain; enter a domain of the project's own",
      });
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

/** Is `host` (a name, maybe with a port) `domain` or a name under it? */
const underDomain = (host: string, domain: string): boolean => {
  const name = host.replace(/:\d+$/, '');
  return name === domain || name.endsWith(`.${domain}`);
};

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

/** The push service-account keys, sealed as stored: compared, never recorded (docs/decisions/0014 "Management actions"). */
const PROJECT_SECRETS = ['pushOptions.platforms.*.config'];

export interface ProjectSettingsDeps {
  db: Db;
  clock: Clock;
  audit: AuditHook;
  secretBox: SecretBox;
  /** The one host no project may claim: PUBLIC_URL's. */
  serverHost: string;
  /** docs/decisions/0047: no custom domain under the projects' own hosts' domain. */
  issuerDomain: string | null;
}

/** A project's settings saved: the whole project, its secrets kept, its domains claimed. */
export function createProjectSettingsCalls({ db, clock, audit, secretBox, serverHost, issuerDomain }: ProjectSettingsDeps) {
  return {
    /**
     * spec §7 "PUT projects/{id}" with the whole project. spec §4: a closed project takes no
     * changes; derived fields are normalised; spec §6 "Global unlock": domains, confirmation URL
     * and association files change only for a global permission. `enabled` changes only via /meta.
     */
    async updateProject(actor: Actor, projectId: string, update: ProjectUpdate, ifMatch: number | null): Promise<Versioned<Project>> {
      return db.transaction(async (tx) => {
        const current = await lockProjectForWrite(tx, projectId);
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
        checkDomainSettings(before, settings, serverHost, issuerDomain);
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
  };
}
