import { DomainError, signingKeyGraceSeconds, type Issuer, type IssuerMove, type IssuerPlacement, type SigningKeys } from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import type { SecretBox } from '../../crypto.ts';
import type { Db } from '../../db/db.ts';
import { notFound, projectClosed } from '../../errors.ts';
import { checkVersion, type Versioned } from '../../http/etag.ts';
import type { Actor } from '../../http/actor.ts';
import { issuerSite, type IssuerHosts } from '../../issuer/custom-domains.ts';
import { issuerSigningKeys, listSigningKeys, rotateSigningKey } from '../../oidc/keys.ts';
import type { AuditHook } from '../audit/audit.service.ts';
import { changesBetween } from '../audit/changes.ts';
import { lockProjectForWrite } from './project.ts';
import { claimOwnHost, findIssuer, saveIssuer } from './projects.repository.ts';

export interface ProjectIssuerDeps {
  db: Db;
  clock: Clock;
  audit: AuditHook;
  secretBox: SecretBox;
  /**
   * The URL of a project's OpenID Connect issuer: the read-only `address` of its issuer settings
   * (issue 8), under PUBLIC_URL, at its custom domain's origin (docs/decisions/0016) or its own host's (0047).
   */
  issuerAddress: (projectId: string, hosts: IssuerHosts) => string;
  /** docs/decisions/0047: the own host a project's issuer would get, or null (no ISSUER_DOMAIN, or an id that is no DNS label). */
  ownHostOf: (projectId: string) => string | null;
  /** The server's PUBLIC_URL: the shared path's origin and passkey domain. */
  publicUrl: string;
}

/** The issuer's fields that are the server's to say (never stored: a PUT's are ignored). */
type StoredIssuer = Omit<Issuer, 'address' | 'placement' | 'own_host' | 'passkey_domain' | 'moves'>;
function storedPart(issuer: Issuer): StoredIssuer {
  const { address: _address, placement: _placement, own_host: _own, passkey_domain: _domain, moves: _moves, ...stored } = issuer;
  return stored;
}

/** A project's issuer: its settings and its signing keys (issue 22). */
export function createProjectIssuerCalls({ db, clock, audit, secretBox, issuerAddress, ownHostOf, publicUrl }: ProjectIssuerDeps) {
  // docs/decisions/0047: the address, where it is, the passkeys' domain and whether a move to an own host is offered.
  const withAddress = (projectId: string, issuer: Versioned<Issuer>, hosts: IssuerHosts): Versioned<Issuer> => {
    const site = issuerSite(publicUrl, { projectId, ...hosts });
    const placement: IssuerPlacement = site.mountPath !== '' ? 'sharedPath' : site.issuer === hosts.ownOrigin ? 'ownHost' : 'customDomain';
    const ownHost = hosts.ownOrigin ?? ownHostOf(projectId);
    const moves: IssuerMove['to'][] = hosts.ownOrigin === null && ownHost !== null ? ['ownHost'] : [];
    return {
      value: {
        ...storedPart(issuer.value),
        address: issuerAddress(projectId, hosts),
        placement,
        own_host: ownHost ?? '',
        passkey_domain: site.rpID,
        moves,
      },
      version: issuer.version,
    };
  };

  return {
    async getIssuer(projectId: string): Promise<Versioned<Issuer>> {
      const found = await findIssuer(db, projectId);
      if (!found) throw notFound();
      return withAddress(projectId, found, found.hosts);
    },

    /** spec §7 "PUT projects/{project}/issuer"; refused while the project is closed (spec §4). */
    async updateIssuer(actor: Actor, projectId: string, issuer: Issuer, ifMatch: number | null): Promise<Versioned<Issuer>> {
      return db.transaction(async (tx) => {
        const current = await lockProjectForWrite(tx, projectId);
        if (!current.value.enabled) throw projectClosed();
        checkVersion(current.version, ifMatch, 'project');
        // The address and where it is are the server's to say, not stored (issue 8: read-only; 0047).
        const found = await findIssuer(tx, projectId);
        const before = found ? storedPart(found.value) : {};
        const saved = await saveIssuer(tx, { id: projectId, issuer: { ...storedPart(issuer), address: '' }, now: clock.now() });
        const after = storedPart(saved.value);
        await audit(tx, {
          actor,
          action: 'issuer.update',
          result: 'success',
          projectId,
          changes: changesBetween(before, after),
          details: { version: saved.version },
        });
        return withAddress(projectId, saved, found?.hosts ?? { customOrigin: null, ownOrigin: null });
      });
    },

    /**
     * docs/decisions/0047: the issuer moves from {PUBLIC_URL}/p/{project} to the project's own host
     * (its identifier and its passkeys' relying party). The project's version moves, so every
     * instance builds its issuer at the new address at the next request; the old address answers
     * 307 there. Refused while the project is closed, when it is on its own host already (409), and
     * when this server gives projects no own host (400).
     */
    async moveIssuer(actor: Actor, projectId: string, move: IssuerMove): Promise<Issuer> {
      return db.transaction(async (tx) => {
        const current = await lockProjectForWrite(tx, projectId);
        if (!current.value.enabled) throw projectClosed();
        const found = await findIssuer(tx, projectId);
        if (!found) throw notFound();
        if (found.hosts.ownOrigin !== null) throw new DomainError('conflict', "The project's issuer is on its own host already");
        const origin = ownHostOf(projectId);
        if (origin === null) {
          const message = 'This server gives projects no host of their own (ISSUER_DOMAIN), or this project id cannot name one';
          throw new DomainError('validation_failed', message, [{ field: 'to', code: 'validation.invalid_value', message }]);
        }
        if (!(await claimOwnHost(tx, projectId, origin))) throw new DomainError('conflict', `${new URL(origin).host} is in use`);
        const before = issuerAddress(projectId, found.hosts);
        const hosts = { ...found.hosts, ownOrigin: origin };
        const saved = await saveIssuer(tx, { id: projectId, issuer: found.value, now: clock.now() });
        await audit(tx, {
          actor,
          action: 'issuer.move',
          result: 'success',
          projectId,
          changes: { address: { before, after: issuerAddress(projectId, hosts) } },
          details: { version: saved.version, to: move.to },
        });
        return withAddress(projectId, saved, hosts).value;
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
        const current = await lockProjectForWrite(tx, projectId);
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
