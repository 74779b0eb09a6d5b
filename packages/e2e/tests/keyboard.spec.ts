import { goToApps } from '../support/apps-pages.ts';
import { createAppWithKeysThroughApi, createProjectThroughApi } from '../support/call-api.ts';
import { expect, test } from '../support/fixtures.ts';
import {
  columnHeader,
  expectFocusInside,
  expectVisibleFocus,
  historyButton,
  mainContent,
  openDialog,
  skipToContentLink,
  sortButton,
  tabTo,
} from '../support/keyboard.ts';
import { newEmail, signIn } from '../support/sign-in.ts';

// issue 13 "Keyboard and screen reader": a person without a mouse reaches every action in order,
// sees where the focus is, sorts a list from its headers, and a dialog keeps the focus inside until
// it closes, then gives it back.

test('a keyboard user skips to the page, sorts the applications by a header, and a dialog holds and gives back the focus', async ({ page }) => {
  await signIn(page, newEmail('keyboard'));
  const projectId = await createProjectThroughApi(page, `Keys ${Date.now().toString(36)}`);
  await createAppWithKeysThroughApi(page, projectId, ['https://alpha.example.com/callback']);
  await createAppWithKeysThroughApi(page, projectId, ['https://beta.example.com/callback']);

  await test.step('the first Tab offers "Skip to content", which moves the focus to the page', async () => {
    await goToApps(page, projectId);
    await page.keyboard.press('Tab');
    const skip = skipToContentLink(page);
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await expectVisibleFocus(skip);
    await page.keyboard.press('Enter');
    await expect(mainContent(page)).toBeFocused();
    await expect(page).toHaveURL(new RegExp(`/project/${projectId}/apps$`));
  });

  await test.step('Tab reaches the Name header; Enter sorts by it and says so (aria-sort)', async () => {
    const header = columnHeader(page, /Name/);
    const button = sortButton(header);
    await expect(header).toHaveAttribute('aria-sort', 'ascending');
    await tabTo(page, button);
    await expectVisibleFocus(button);
    await page.keyboard.press('Enter');
    await expect(header).toHaveAttribute('aria-sort', 'descending');
    await expect(button).toBeFocused();
  });

  await test.step('the settings history drawer keeps the focus inside, Escape closes it and the focus is back on its button', async () => {
    await page.goto(`/project/${projectId}/settings`);
    const open = historyButton(page);
    await tabTo(page, open);
    await expectVisibleFocus(open);
    await page.keyboard.press('Enter');
    const drawer = openDialog(page);
    await expect(drawer).toBeVisible();
    for (let i = 0; i < 8; i += 1) {
      await page.keyboard.press('Tab');
      await expectFocusInside(drawer, `focus inside the dialog after ${i + 1} Tab`);
    }
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(open).toBeFocused();
  });
});
