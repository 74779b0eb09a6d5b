import type { Project, UserImport } from '@latchkey/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PROGRESS_EVERY_MS } from '../src/features/users/api/use-user-imports.ts';
import { projectApi, type Routes } from './project-api.ts';
import { renderApp } from './render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

const NO_USERS = { 'GET /projects/p1/users': { body: { total: 0, totalCapped: false, list: [], nextCursor: null } } };

/** The project's API with its empty Users list. */
const server = (routes: Routes = {}) => projectApi({ ...NO_USERS, ...routes });

function job(overrides: Partial<UserImport> = {}): UserImport {
  return {
    id: 'imp-1',
    format: 'jsonl',
    status: 'running',
    lines: 1000,
    total: 4000,
    imported: 990,
    unchanged: 0,
    refused: 10,
    failure: null,
    startedAt: '2026-01-05T09:05:07.000Z',
    finishedAt: null,
    ...overrides,
  };
}

// Issue 37 "Migration" (docs/decisions/0052): the imported password days (a project setting) and an import's progress.
describe('imported password days (General page)', () => {
  it('shows 90 days by default, checks 1 to 365 before saving, and saves the whole project with it', async () => {
    const api = server();
    const { user } = renderApp('/project/p1/settings');
    const section = await screen.findByRole('group', { name: 'Imported users' }, { timeout: 15_000 });
    const days = within(section).getByRole('textbox', { name: 'Imported passwords expire after (days)' });
    expect(days).toHaveValue('90');
    await user.clear(days);
    await user.type(days, '400');
    expect(await within(section).findByText('Value not in the valid range')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.clear(days);
    await user.type(days, '30');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo('PUT /projects/p1')).toHaveLength(1));
    expect((api.callsTo('PUT /projects/p1')[0]?.body as Project).importedPasswordDays).toBe(30);
  }, 30_000);
});

describe('an import’s progress (Users page)', () => {
  it('reads the job each second while it runs, shows how far it got, and stops reading once it is done', async () => {
    const answers = [job(), job({ lines: 3000 }), job({ status: 'done', lines: 4000, imported: 3990, finishedAt: '2026-01-05T09:07:00.000Z' })];
    let read = 0;
    const api = server({
      'GET /projects/p1/user-imports': () => ({ body: { items: [answers[Math.min(read++, answers.length - 1)]] } }),
    });
    renderApp('/project/p1/users');
    const imports = await screen.findByRole('table', { name: 'Imports' }, { timeout: 15_000 });
    expect(await within(imports).findByRole('progressbar', { name: '1000 of 4000 lines' })).toBeInTheDocument();
    expect(within(imports).getByText('Importing')).toBeInTheDocument();
    expect(await within(imports).findByRole('progressbar', { name: '3000 of 4000 lines' }, { timeout: 3000 })).toBeInTheDocument();
    expect(await within(imports).findByText('Done', {}, { timeout: 3000 })).toBeInTheDocument();
    // The people it added are read again once it ends.
    await waitFor(() => expect(api.callsTo('GET /projects/p1/users').length).toBeGreaterThan(1));
    const reads = api.callsTo('GET /projects/p1/user-imports').length;
    // A poll and a half with no new read: nothing asks once no import is under way.
    await new Promise((resolve) => setTimeout(resolve, PROGRESS_EVERY_MS * 1.5));
    expect(api.callsTo('GET /projects/p1/user-imports')).toHaveLength(reads);
  }, 30_000);
});
