import { generateKeyPairSync } from 'node:crypto';
import { expect } from 'vitest';
import {
  API_BASE_PATH,
  api,
  buildPath,
  type Application,
  type ApplicationKeys,
  type ApplicationType,
  type AuditResult,
  type Endpoint,
  type Issuer,
  type Project,
} from '@latchkey/domain';
import type { Db } from '../../src/db/db.ts';
import { insertAuditEvent } from '../../src/events/audit-events.repository.ts';
import { insertDevice } from '../../src/people/devices.repository.ts';
import type { SignedIn } from './app.ts';

/** The path of a contract entry under /api (paths are written once, in the contract). */
export function apiPath(endpoint: Pick<Endpoint, 'path'>, params: Record<string, string> = {}): string {
  return `${API_BASE_PATH}${buildPath(endpoint.path, params)}`;
}

export const REDIRECT = 'https://app.example.com/callback';

/** A project created through the API by `by` (who is granted cst:{project}:*). */
export async function createProject(by: SignedIn, name = `Team ${Math.random().toString(36).slice(2, 8)}`): Promise<string> {
  const res = await by.api.post<{ id: string }>(apiPath(api.createProject), { name, pinLength: 4, email: by.account.email });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

export async function getProject(by: SignedIn, id: string): Promise<Project> {
  const res = await by.api.get<Project>(apiPath(api.getProject, { project: id }));
  expect(res.status).toBe(200);
  return res.body;
}

export async function closeProject(admin: SignedIn, projectId: string): Promise<void> {
  expect((await admin.api.put(apiPath(api.updateProjectMeta, { project: projectId }), { enabled: false })).status).toBe(200);
}

/** Changes some of a project's issuer settings as its admin does (GET, then PUT with the change): expects 200. */
export async function changeIssuer(by: SignedIn, projectId: string, change: Partial<Issuer>): Promise<void> {
  const path = apiPath(api.getIssuer, { project: projectId });
  const current = await by.api.get<Issuer>(path);
  const res = await by.api.put(path, { ...current.body, ...change });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** An application of the project (a web app unless `applicationType` says otherwise, issue 22). */
export async function createApp(by: SignedIn, projectId: string, name = 'Web portal', applicationType: ApplicationType = 'web'): Promise<string> {
  const res = await by.api.post<{ id: string }>(apiPath(api.createApp), {
    platformCode: 'oidc',
    applicationType,
    name,
    url: 'https://app.example.com',
    projectId,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

export async function createKeys(by: SignedIn, appId: string, redirectURI: string[] = [REDIRECT]): Promise<ApplicationKeys> {
  const res = await by.api.post<ApplicationKeys>(apiPath(api.createAppKeys, { application: appId }), { redirectURI });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

export async function getApp(by: SignedIn, appId: string): Promise<Application> {
  const res = await by.api.get<Application>(apiPath(api.getApp, { application: appId }));
  expect(res.status).toBe(200);
  return res.body;
}

export async function setEnabled(by: SignedIn, appId: string, enabled: boolean): Promise<void> {
  const current = await getApp(by, appId);
  const res = await by.api.put(apiPath(api.updateApp, { application: appId }), { name: current.name, logoUrl: current.logoUrl, enabled });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/**
 * A fingerprint of every row of every table of the schema: equal before and after means nothing
 * was written. Tables are found from the catalogue, so a table added later is covered too.
 */
export async function databaseFingerprint(db: Db): Promise<Record<string, string>> {
  const { rows: tables } = await db.query<{ name: string }>(
    `SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`,
  );
  const fingerprint: Record<string, string> = {};
  for (const { name } of tables) {
    const { rows } = await db.query<{ n: number; digest: string | null }>(
      `SELECT count(*)::int AS n, md5(string_agg(t::text, '|' ORDER BY t::text)) AS digest FROM "${name}" AS t`,
    );
    fingerprint[name] = `${rows[0]?.n}:${rows[0]?.digest ?? ''}`;
  }
  return fingerprint;
}

/**
 * A device stored as a passkey registration stores it (a dummy public key: it never signs), for
 * tests that need devices without running the ceremony. Answers its id (the mpinId).
 */
export async function storeDevice(
  db: Db,
  d: { projectId: string; userId: string; createdAt: Date; id?: string; name?: string; ip?: string | null; transports?: string[] },
): Promise<string> {
  const id = d.id ?? `cred-${Math.random().toString(36).slice(2)}`;
  await insertDevice(db, {
    projectId: d.projectId,
    id,
    userId: d.userId,
    publicKey: 'AQID',
    counter: 0,
    transports: d.transports ?? ['internal'],
    name: d.name ?? 'Chrome on Linux',
    ip: d.ip ?? null,
    country: null,
    createdAt: d.createdAt,
  });
  return id;
}

/** An audit event to store: what the list tests filter and sort on; `action` goes to details to name it. */
export interface StoredEvent {
  action: string;
  at: Date;
  userId: string | null;
  deviceName: string | null;
  scope: string;
  result: AuditResult;
  userAgent?: string;
  /** Where it came from (ISO 3166-1 alpha-2); GB unless told. */
  country?: string;
  /** More details beside the action. */
  details?: Record<string, unknown>;
}

/** An event stored as the issuer and the console store them (the one writer), from a fixed address and client. */
export function storeAuditEvent(db: Db, projectId: string, e: StoredEvent) {
  return insertAuditEvent(db, {
    projectId,
    createdAt: e.at,
    userId: e.userId,
    deviceName: e.deviceName,
    scope: e.scope,
    eventStatus: e.result,
    ip: '81.2.69.160',
    country: e.country ?? 'GB',
    clientId: 'client-1',
    userAgent: e.userAgent ?? 'Mozilla/5.0 (X11; Linux x86_64)',
    details: { action: e.action, ...e.details },
  });
}

let privateKeyPem: string | null = null;

/**
 * A Firebase service account key file as the Firebase console gives it (issue 11: the Mobile
 * Applications page takes the file): type service_account, the project, an account and a real
 * PKCS #8 private key (made once per process). `label` goes into the key id and the account, so
 * two keys differ.
 */
export function serviceAccountKey(projectId = 'latchkey-push-test', label = 'one'): string {
  privateKeyPem ??= generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return JSON.stringify({
    type: 'service_account',
    project_id: projectId,
    private_key_id: `key-${label}`,
    private_key: privateKeyPem,
    client_email: `firebase-adminsdk-${label}@${projectId}.iam.gserviceaccount.com`,
    client_id: '103456789012345678901',
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: 'https://oauth2.googleapis.com/token',
  });
}

/** The person's id (project_users.id, the sub) of an identity: what their events store (docs/decisions/0046). */
export async function personOf(db: Db, projectId: string, identity: string): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM project_users WHERE project_id = $1 AND identity_key = $2', [projectId, identity]);
  return rows[0]?.id;
}
