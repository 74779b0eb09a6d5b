import { signingKeyGraceSeconds, type Issuer, type SigningKeys } from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import type { SecretBox } from '../../crypto.ts';
import type { Db } from '../../db/db.ts';
import { notFound, projectClosed } from '../../errors.ts';
import { checkVersion, type Versioned } from '../../http/etag.ts';
import type { Actor } from '../../http/actor.ts';
import { issuerSigningKeys, listSigningKeys, rotateSigningKey } from '../../oidc/keys.ts';
import type { AuditHook } from '../audit/audit.service.ts';
import { changesBetween } from '../audit/changes.ts';
import { lockProjectForWrite } from './project.ts';
import { findIssuer, saveIssuer } from './projects.repository.ts';

export interface ProjectIssuerDeps {
  db: Db;
  clock: Clock;
  audit: AuditHook;
  secretBox: SecretBox;
  /**
   * The URL of a project's OpenID Connect issuer: the read-only `address` of its issuer settings
   * (issue 8), under PUBLIC_URL or at its custom domain's origin (docs/decisions/0016).
   */
  issuerAddress: (projectId: string, customOrigin: string | null) => string;
}

/** A project's issuer: its settings and its signing keys (issue 22). */
export function createProjectIssuerCalls({ db, clock, audit, secretBox, issuerAddress }: ProjectIssuerDeps) {
  const withAddress = (projectId: string, issuer: Versioned<Issuer>, customOrigin: string | null): Versioned<Issuer> => ({
    value: { ...issuer.value, address: issuerAddress(projectId, customOrigin) },
    version: issuer.version,
  });

  return {
    async getIssuer(projectId: string): Promise<Versioned<Issuer>> {
      const found = await findIssuer(db, projectId);
      if (!found) throw notFound();
      return withAddress(projectId, found, found.customOrigin);
    },

    /** spec §7 "PUT projects/{project}/issuer"; refused while the project is closed (spec §4). */
    async updateIssuer(actor: Actor, projectId: string, issuer: Issuer, ifMatch: number | null): Promise<Versioned<Issuer>> {
      return db.transaction(async (tx) => {
        const current = await lockProjectForWrite(tx, projectId);
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
