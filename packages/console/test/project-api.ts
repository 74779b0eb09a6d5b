import type { Project } from '@latchkey/domain';
import { fakeApi, type ApiCall, type FakeAnswer } from './fake-api.ts';
import { ACCOUNT, consoleConfig, project, projectSummary } from './fixtures.ts';

export type Routes = Record<string, FakeAnswer | ((call: ApiCall) => FakeAnswer)>;

/**
 * The API of one signed-in account and its project p1, whose settings a PUT changes (each save a
 * new ETag version, as the server answers), an empty settings history; `routes` add or replace calls.
 */
export function projectApi(routes: Routes = {}) {
  let current = project();
  let version = 3;
  return fakeApi({
    'GET /account': { body: ACCOUNT },
    'GET /config': { body: consoleConfig() },
    'GET /accounts/acc-1/projects': { body: [projectSummary()] },
    'GET /projects/p1': () => ({ body: current, headers: { ETag: `"${version}"` } }),
    'PUT /projects/p1': (call) => {
      current = { ...current, ...(call.body as Partial<Project>) };
      version += 1;
      return { body: current, headers: { ETag: `"${version}"` } };
    },
    'GET /projects/p1/settings/history': { body: { list: [], total: 0, offset: 0, limit: 20 } },
    ...routes,
  });
}
