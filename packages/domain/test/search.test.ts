import { describe, expect, it } from 'vitest';
import { rankSearchResults, searchReach, type SearchKind, type SearchResult } from '../src/index.ts';

// Issue 13 (docs/decisions/0023): each kind is found where the guard of its page passes.
describe('searchReach', () => {
  const cases: Array<[string, string[], SearchKind, { everyProject: boolean; projects: string[] }]> = [
    ['glb::* reaches every project for every kind', ['glb::*'], 'audit', { everyProject: true, projects: [] }],
    ['any global permission shows every project', ['glb::usage'], 'project', { everyProject: true, projects: [] }],
    ['glb::apps reaches every project for apps', ['glb::apps'], 'app', { everyProject: true, projects: [] }],
    ['glb::apps does not reach devices', ['glb::apps'], 'device', { everyProject: false, projects: [] }],
    ['glb::accounts reaches accounts everywhere', ['glb::accounts'], 'account', { everyProject: true, projects: [] }],
    ['glb::projects does not reach the audit log (its guard has no global entry)', ['glb::projects'], 'audit', { everyProject: false, projects: [] }],
    ['usage on a project shows the project', ['cst:p1:usage'], 'project', { everyProject: false, projects: ['p1'] }],
    ['usage on a project shows none of its apps', ['cst:p1:usage'], 'app', { everyProject: false, projects: [] }],
    ['revocation gives devices', ['cst:p1:revocation'], 'device', { everyProject: false, projects: ['p1'] }],
    ['revocation does not give the audit log', ['cst:p1:revocation'], 'audit', { everyProject: false, projects: [] }],
    ['the project wildcard gives every kind', ['cst:p1:*'], 'audit', { everyProject: false, projects: ['p1'] }],
    [
      'each project once, sorted, only where the guard passes',
      ['cst:p2:apps', 'cst:p1:apps', 'cst:p1:usage', 'cst:p3:audit'],
      'app',
      { everyProject: false, projects: ['p1', 'p2'] },
    ],
    ['nothing held reaches nothing', [], 'project', { everyProject: false, projects: [] }],
  ];
  it.each(cases)('%s', (_name, held, kind, expected) => {
    expect(searchReach(held, kind)).toEqual(expected);
  });
});

describe('rankSearchResults', () => {
  const base = { projectName: 'P', projectEnabled: true, detail: null };
  const project = (id: string, exact = false): SearchResult => ({ ...base, kind: 'project', id, projectId: id, title: `Name ${id}`, exact });
  const app = (id: string, projectId: string, title: string, exact = false): SearchResult => ({
    ...base,
    kind: 'app',
    id,
    projectId,
    title,
    exact,
    clientId: null,
    enabled: true,
  });
  const account = (id: string, projectId: string): SearchResult => ({
    ...base,
    kind: 'account',
    id,
    projectId,
    title: 'a@example.test',
    exact: false,
    email: 'a@example.test',
    serviceAccount: false,
    active: true,
  });

  it('puts the current project first, then whole-id matches, then by kind and title (any case)', () => {
    const results = [app('x1', 'p2', 'beta'), app('x2', 'p2', 'Alpha'), project('p2', true), app('x3', 'p1', 'zeta'), project('p1')];
    expect(rankSearchResults(results, 'p1', 10).map((r) => r.id)).toEqual(['p1', 'x3', 'p2', 'x2', 'x1']);
    expect(rankSearchResults(results, undefined, 10).map((r) => r.id)).toEqual(['p2', 'p1', 'x2', 'x1', 'x3']);
  });

  it('keeps one of each thing (an account once, preferably in the current project) and at most `limit`', () => {
    const results = [account('acc', 'p1'), account('acc', 'p2'), app('x', 'p1', 'x', true), app('x', 'p1', 'x')];
    expect(rankSearchResults(results, 'p2', 10).map((r) => `${r.kind}:${r.id}:${r.projectId}:${r.exact}`)).toEqual([
      'account:acc:p2:false',
      'app:x:p1:true',
    ]);
    expect(rankSearchResults(results, 'p2', 1)).toHaveLength(1);
  });
});
