import AxeBuilder from '@axe-core/playwright';
import { api } from '@latchkey/domain';
import type { Page } from '@playwright/test';
import { callApiOk, createAppWithKeysThroughApi, createProjectThroughApi } from '../support/call-api.ts';
import { expect, test } from '../support/fixtures.ts';
import { saveShots } from '../support/shots.ts';
import { newEmail, signIn, signInInNewContext } from '../support/sign-in.ts';

// issue 13 "Find anything": Ctrl+K opens the command palette anywhere; it jumps to the project's
// pages and finds, through GET /search on the real server, what the account may see by any id or name.

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

function palette(page: Page) {
  return page.getByRole('dialog', { name: 'Find anything' });
}

async function openPalette(page: Page): Promise<void> {
  await page.keyboard.press('Control+k');
  await expect(palette(page).getByRole('combobox')).toBeFocused();
}

/** Types into the palette and waits for an option naming `expected`. */
async function search(page: Page, text: string, expected: string | RegExp): Promise<void> {
  await palette(page).getByRole('combobox').fill(text);
  await expect(palette(page).getByRole('option', { name: expected }).first()).toBeVisible();
}

test('an admin finds an application by its client id, an account by email and an audit event by id, by keyboard alone', async ({
  page,
  browser,
  baseURL,
}) => {
  const email = newEmail('finder');
  await signIn(page, email);
  const projectName = `Findable ${Date.now().toString(36)}`;
  const projectId = await createProjectThroughApi(page, projectName);
  const keys = await createAppWithKeysThroughApi(page, projectId, ['https://app.example.com/callback']);
  const events = await callApiOk(page, api.listAuditEvents, { params: { project: projectId } });
  const event = events.list[0];
  if (!event) throw new Error('the project has no audit event to find');

  await page.goto(`/project/${projectId}/dashboard`);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

  await test.step('Ctrl+K opens it on the project’s pages; Escape closes it and gives focus back', async () => {
    const searchButton = page.getByRole('button', { name: 'Search' });
    await searchButton.focus();
    await openPalette(page);
    await expect(palette(page).getByRole('group', { name: 'Pages' }).getByRole('option')).toHaveCount(12);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
      const results = await new AxeBuilder({ page }).withTags(WCAG_22_AA).analyze();
      expect(
        results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
        colorScheme,
      ).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: null, reducedMotion: null });
    await page.keyboard.press('Escape');
    await expect(palette(page)).toBeHidden();
    await expect(searchButton).toBeFocused();
  });

  await test.step('a page by its name: "acc" and Enter opens Accounts', async () => {
    await openPalette(page);
    await palette(page).getByRole('combobox').fill('acc');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/project/${projectId}/accounts$`));
  });

  await test.step('the application by its client id', async () => {
    await openPalette(page);
    await search(page, keys.clientId, /Test app/);
    await saveShots(page, 'palette-app', { fullPage: false });
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/project/${projectId}/app/${keys.id}/settings$`));
  });

  await test.step('an account by the start of its email', async () => {
    await openPalette(page);
    await search(page, email.slice(0, 12), email);
    await palette(page).getByRole('option', { name: email }).click();
    await expect(page).toHaveURL(/\/account\/[^/]+\/settings$/);
  });

  await test.step('an audit event by its id: the audit log on its day', async () => {
    await openPalette(page);
    await palette(page).getByRole('combobox').fill(event.id);
    await expect(palette(page).getByRole('group', { name: 'Audit events' }).getByRole('option')).toHaveCount(1);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/project/${projectId}/audit#.*fromDate=${event.createdAt.slice(0, 10)}`));
    await expect(page.getByRole('table', { name: 'Audit log' }).getByRole('row')).not.toHaveCount(1);
  });

  await test.step('another account finds nothing of this project', async () => {
    const other = await signInInNewContext(browser, baseURL as string, newEmail('outsider'));
    await openPalette(other.page);
    for (const text of [keys.clientId, projectName, event.id]) {
      await palette(other.page).getByRole('combobox').fill(text);
      await expect(palette(other.page).getByRole('status')).toHaveText('Nothing found');
      await expect(palette(other.page).getByRole('option')).toHaveCount(0);
    }
    await other.close();
  });
});
