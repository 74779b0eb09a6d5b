import { api } from '@latchkey/domain';
import { expectWcagCleanLightAndDark } from '../support/axe.ts';
import { callApiOk, createAppWithKeysThroughApi, createProjectThroughApi } from '../support/call-api.ts';
import { expect, test } from '../support/fixtures.ts';
import {
  clickPaletteOption,
  expectAuditLogListsEvents,
  expectNothingFound,
  expectPaletteClosed,
  expectPaletteGroup,
  expectSearchButtonFocused,
  fillPalette,
  focusSearchButton,
  openPalette,
  search,
} from '../support/search-pages.ts';
import { expectPageTitle } from '../support/project-pages.ts';
import { saveShots } from '../support/shots.ts';
import { newEmail, signIn, signInInNewContext } from '../support/sign-in.ts';

// issue 13 "Find anything": Ctrl+K opens the command palette anywhere; it jumps to the project's
// pages and finds, through GET /search on the real server, what the account may see by any id or name.

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
  await expectPageTitle(page, 'Dashboard');

  await test.step('Ctrl+K opens it on the project’s pages; Escape closes it and gives focus back', async () => {
    await focusSearchButton(page);
    await openPalette(page);
    // The project's 12 menu pages (with Users and Webhooks, issue 24), the project list and Create project.
    await expectPaletteGroup(page, 'Pages', 14);
    await expectWcagCleanLightAndDark(page, 'the open palette');
    await page.keyboard.press('Escape');
    await expectPaletteClosed(page);
    await expectSearchButtonFocused(page);
  });

  await test.step('a page by its name: "acc" and Enter opens Accounts', async () => {
    await openPalette(page);
    await fillPalette(page, 'acc');
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
    await clickPaletteOption(page, email);
    await expect(page).toHaveURL(/\/account\/[^/]+\/settings$/);
  });

  await test.step('an audit event by its id: the audit log on its day', async () => {
    await openPalette(page);
    await fillPalette(page, event.id);
    await expectPaletteGroup(page, 'Audit events', 1);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/project/${projectId}/audit#.*fromDate=${event.createdAt.slice(0, 10)}`));
    await expectAuditLogListsEvents(page);
  });

  await test.step('another account finds nothing of this project', async () => {
    const other = await signInInNewContext(browser, baseURL as string, newEmail('outsider'));
    await openPalette(other.page);
    for (const text of [keys.clientId, projectName, event.id]) {
      await fillPalette(other.page, text);
      await expectNothingFound(other.page);
    }
    await other.close();
  });
});
