import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  API_TAGS,
  errorBodySchema,
  errorStatus,
  errorStatusesOf,
  errorStatusMeaning,
  type ApiErrorStatus,
  type Endpoint,
} from '@latchkey/domain';
import { lintOpenApiDocument } from '../scripts/openapi.ts';
import { anonymous, signedInAccount, startTestApp, type SignedIn, type TestApp } from './support/app.ts';
import { createTestDatabase } from './support/databases.ts';
import { apiPath, closeProject, createProject, getProject } from './support/fixtures.ts';

interface Operation {
  operationId?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ in: string; name: string }>;
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }>; headers?: Record<string, unknown> }>;
}
interface Document {
  info: { license?: { name: string; identifier?: string } };
  tags?: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { required?: string[]; properties: Record<string, { enum?: string[] }> }> };
}

const entries = Object.entries(api) as Array<[keyof typeof api, Endpoint]>;

/** `/projects/:project` is `/api/projects/{project}` in the document. */
const documentPath = (e: Endpoint) => `/api${e.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`;

/**
 * The error statuses each call answers, spelled out: what a service-account client reads in the
 * document. Written here by hand (not computed) so that a change to the derivation in the domain,
 * or to an entry, shows up as a failing row.
 */
const EXPECTED: Record<keyof typeof api, ApiErrorStatus[]> = {
  getAuthUrl: [400],
  login: [400, 403, 413, 415],
  getAccount: [400, 401, 403],
  setAccountLanguage: [400, 401, 403, 409, 412, 413, 415],
  getConsoleConfig: [400],
  logout: [400, 403],
  listAccountProjects: [400, 401, 403, 404],
  createProject: [400, 401, 403, 409, 413, 415],
  getProject: [400, 401, 403, 404],
  updateProject: [400, 401, 403, 404, 409, 412, 413, 415],
  updateProjectMeta: [400, 401, 403, 404, 409, 412, 413, 415],
  listSettingsHistory: [400, 401, 403, 404],
  getIssuer: [400, 401, 403, 404],
  updateIssuer: [400, 401, 403, 404, 409, 412, 413, 415],
  getSigningKeys: [400, 401, 403, 404],
  rotateSigningKey: [400, 401, 403, 404, 409],
  moveIssuer: [400, 401, 403, 404, 409, 413, 415],
  listApps: [400, 401, 403, 404],
  createApp: [400, 401, 403, 404, 409, 413, 415],
  getApp: [400, 401, 403, 404],
  updateApp: [400, 401, 403, 404, 409, 412, 413, 415],
  createAppKeys: [400, 401, 403, 404, 409, 413, 415],
  getAppKeys: [400, 401, 403, 404],
  updateAppKeys: [400, 401, 403, 404, 409, 412, 413, 415],
  generateAppKeys: [400, 401, 403, 404, 409, 412, 413, 415],
  listDevices: [400, 401, 403, 404],
  revokeDevice: [400, 401, 403, 404, 409, 413, 415],
  exportDevices: [400, 401, 403, 404],
  revokeDevices: [400, 401, 403, 404, 409, 413, 415],
  listEndUsers: [400, 401, 403, 404],
  exportEndUsers: [400, 401, 403, 404],
  importEndUsers: [400, 401, 403, 404, 409, 413, 415],
  listUserImports: [400, 401, 403, 404],
  getUserImport: [400, 401, 403, 404],
  exportEndUsersForMigration: [400, 401, 403, 404],
  getEndUser: [400, 401, 403, 404],
  exportEndUserData: [400, 401, 403, 404],
  blockEndUser: [400, 401, 403, 404, 409],
  unblockEndUser: [400, 401, 403, 404, 409],
  endEndUserSessions: [400, 401, 403, 404, 409],
  endEndUserSession: [400, 401, 403, 404, 409],
  createReenrollmentLink: [400, 401, 403, 404, 409],
  deleteEndUser: [400, 401, 403, 404, 409],
  listWebhooks: [400, 401, 403, 404],
  createWebhook: [400, 401, 403, 404, 409, 413, 415],
  getWebhook: [400, 401, 403, 404],
  updateWebhook: [400, 401, 403, 404, 409, 412, 413, 415],
  deleteWebhook: [400, 401, 403, 404, 409],
  testWebhook: [400, 401, 403, 404, 409],
  listWebhookDeliveries: [400, 401, 403, 404],
  resendWebhookDelivery: [400, 401, 403, 404, 409],
  listAuditEvents: [400, 401, 403, 404],
  exportAuditEvents: [400, 401, 403, 404],
  listAccounts: [400, 401, 403, 404],
  getProjectAccount: [400, 401, 403, 404],
  createAccount: [400, 401, 403, 404, 409, 413, 415],
  updateAccount: [400, 401, 403, 404, 409, 412, 413, 415],
  createServiceAccount: [400, 401, 403, 404, 409, 413, 415],
  rotateServiceToken: [400, 401, 403, 404, 409, 413, 415],
  revokeServiceToken: [400, 401, 403, 404, 409],
  getUsage: [400, 401, 403, 404],
  getEnrollmentFunnel: [400, 401, 403, 404],
  getGlobalUsage: [400, 401, 403],
  search: [400, 401, 403],
};

// The document does not depend on the database: one run on PGlite is enough.
describe('the OpenAPI document at /api/openapi.json', () => {
  let app: TestApp;
  let doc: Document;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    app = await startTestApp(database.db);
    const res = await app.app.inject('/api/openapi.json');
    expect(res.statusCode).toBe(200);
    doc = res.json<Document>();
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  const operation = (e: Endpoint): Operation => {
    const op = doc.paths[documentPath(e)]?.[e.method.toLowerCase()];
    if (!op) throw new Error(`no operation ${e.method} ${documentPath(e)} in the document`);
    return op;
  };

  // `npm run lint:openapi` runs the same check on the document the script generates (the same app
  // and PUBLIC_URL); npm test runs it here, on the app this suite already built (docs/decisions/0025).
  it("passes Redocly's recommended rules (redocly.yaml)", () => {
    const { status, output } = lintOpenApiDocument(doc, { capture: true });
    expect(status, output).toBe(0);
  });

  it('has exactly one operation per contract entry, named by its key (operationId)', () => {
    const operations = Object.values(doc.paths).flatMap((ops) => Object.values(ops));
    expect(operations).toHaveLength(entries.length);
    for (const [name, e] of entries) expect(operation(e).operationId, `${e.method} ${e.path}`).toBe(name);
  });

  it('marks public calls as needing no credentials, and the others as session cookie or bearer token', () => {
    for (const [name, e] of entries) {
      expect(operation(e).security, name).toEqual(e.auth === 'public' ? [] : [{ session: [] }, { bearer: [] }]);
    }
    expect(operation(api.login).security).toEqual([]);
    expect(operation(api.getConsoleConfig).security).toEqual([]);
  });

  it('declares the error statuses each call answers', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(entries.map(([name]) => name).sort());
    for (const [name, e] of entries) {
      const declared = Object.keys(operation(e).responses).filter((status) => status.startsWith('4'));
      expect(declared, name).toEqual(EXPECTED[name].map(String));
      expect(errorStatusesOf(e), name).toEqual(EXPECTED[name]);
    }
  });

  it('gives every error answer the ErrorBody schema and a description of what it means', () => {
    for (const [name, e] of entries) {
      for (const status of errorStatusesOf(e)) {
        const response = operation(e).responses[String(status)];
        expect(response?.content?.['application/json']?.schema, `${name} ${status}`).toEqual({ $ref: '#/components/schemas/ErrorBody' });
        expect(response?.description, `${name} ${status}`).toBe(errorStatusMeaning[status]);
      }
    }
    const body = doc.components.schemas.ErrorBody;
    expect(body?.required).toEqual(['error', 'message']);
    expect(body?.properties.error?.enum?.slice().sort()).toEqual(Object.keys(errorStatus).sort());
    expect(Object.keys(body?.properties ?? {})).toEqual(['error', 'message', 'issues']);
  });

  it('documents the If-Match header on exactly the calls that can answer 412', () => {
    for (const [name, e] of entries) {
      const ifMatch = (operation(e).parameters ?? []).some((p) => p.in === 'header' && p.name.toLowerCase() === 'if-match');
      expect(ifMatch, name).toBe(errorStatusesOf(e).includes(412));
    }
  });

  it('documents the ETag header on the success answer of exactly the versioned calls', () => {
    for (const [name, e] of entries) {
      const success = Object.entries(operation(e).responses).filter(([status]) => status.startsWith('2'));
      expect(success, name).toHaveLength(1);
      expect(Object.keys(success[0]?.[1].headers ?? {}), name).toEqual(e.versioned ? ['ETag'] : []);
    }
    expect(entries.filter(([, e]) => e.versioned).length).toBe(15);
  });

  it('has a licence, and a description for every tag an operation uses', () => {
    expect(doc.info.license).toEqual({ name: 'Proprietary: no licence granted (UNLICENSED)', identifier: 'LicenseRef-UNLICENSED' });
    const tags = new Map((doc.tags ?? []).map((t) => [t.name, t.description]));
    for (const [name, e] of entries) {
      expect(operation(e).tags, name).toEqual([e.tag]);
      expect(tags.get(e.tag), e.tag).toBe(API_TAGS[e.tag]);
    }
  });

  describe('what the server answers matches it', () => {
    let admin: SignedIn;
    let project: string;
    let path: string;
    beforeAll(async () => {
      admin = await signedInAccount(app, database.db);
      project = await createProject(admin);
      path = apiPath(api.updateProject, { project });
    });

    /** The answer's status is declared for the call, and its body is an ErrorBody. */
    function expectDeclaredError(e: Endpoint, res: { status: number; body: unknown }, status: number): void {
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(Object.keys(operation(e).responses)).toContain(String(status));
      expect(errorBodySchema.strict().safeParse(res.body).success, JSON.stringify(res.body)).toBe(true);
    }

    it('400, 401, 403, 404 and 412', async () => {
      const current = await getProject(admin, project);
      expectDeclaredError(api.updateProject, await admin.api.put(path, { ...current, name: '' }), 400);
      expectDeclaredError(api.updateProject, await anonymous(app).put(path, current), 401);
      expectDeclaredError(api.updateProject, await admin.api.put(path, current, { xsrf: 'wrong' }), 403);
      expectDeclaredError(api.updateProject, await admin.api.put(apiPath(api.updateProject, { project: 'no-such-project' }), current), 404);
      expectDeclaredError(api.updateProject, await admin.api.put(path, current, { headers: { 'if-match': '"999"' } }), 412);
    });

    it('403 on a public call: a cross-site logout', async () => {
      expectDeclaredError(api.logout, await admin.api.get(apiPath(api.logout), { headers: { 'sec-fetch-site': 'cross-site' } }), 403);
    });

    it('409 on a closed project', async () => {
      const current = await getProject(admin, project);
      await closeProject(admin, project);
      expectDeclaredError(api.updateProject, await admin.api.put(path, { ...current, displayName: 'Closed' }), 409);
    });
  });
});
