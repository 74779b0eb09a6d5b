import { expect, type Page } from '@playwright/test';
import { expectPageTitle } from './project-pages.ts';

// A project's settings pages (issue 11): General, Branding, User Verification, OpenID Connect and
// Mobile Applications; their Save, the history drawer, and closing a project.

export async function goToSettings(page: Page, projectId: string, path: string, title: string): Promise<void> {
  await page.goto(`/project/${projectId}/${path}`);
  await expectPageTitle(page, title);
  await expectSave(page, 'visible');
}

function saveButton(page: Page) {
  return page.getByRole('button', { name: 'Save' });
}

export async function expectSave(page: Page, state: 'visible' | 'enabled' | 'disabled'): Promise<void> {
  if (state === 'visible') await expect(saveButton(page)).toBeVisible();
  else if (state === 'enabled') await expect(saveButton(page)).toBeEnabled();
  else await expect(saveButton(page)).toBeDisabled();
}

/** Save, and the project's PUT answers 200. */
export async function clickSaveAndWait(page: Page): Promise<void> {
  const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes('/api/projects/'));
  await saveButton(page).click();
  expect((await saved).status()).toBe(200);
}

/** OpenID Connect's Save, and the issuer's PUT answers 200. */
export async function clickSaveIssuerAndWait(page: Page): Promise<void> {
  const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith('/issuer'));
  await saveButton(page).click();
  expect((await saved).status()).toBe(200);
}

/** Picks a file as a person does: the field's button opens the browser's file chooser. */
export async function chooseKeyFile(page: Page, path: string): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Service account key file' }).click();
  await (await chooser).setFiles(path);
}

/** A text field of the form, by its exact label. */
function field(page: Page, name: string) {
  return page.getByRole('textbox', { name, exact: true });
}

export async function fillSetting(page: Page, label: string, value: string): Promise<void> {
  await field(page, label).fill(value);
}

export async function expectSetting(page: Page, label: string, value: string | RegExp): Promise<void> {
  await expect(field(page, label)).toHaveValue(value);
}

export async function expectSettingEnabled(page: Page, label: string, enabled: boolean): Promise<void> {
  if (enabled) await expect(field(page, label)).toBeEnabled();
  else await expect(field(page, label)).toBeDisabled();
}

/** General: a new, empty Allowed CORS Origin field. */
export async function clickAddOrigin(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Add origin' }).click();
}

/** A switch of the form, by its label (exact unless told). */
function switchControl(page: Page, name: string, exact: boolean) {
  return page.getByRole('switch', { name, exact });
}

export async function clickSwitch(page: Page, name: string, exact = true): Promise<void> {
  await switchControl(page, name, exact).click();
}

export async function expectSwitch(page: Page, name: string, state: 'checked' | 'disabled', exact = true): Promise<void> {
  if (state === 'checked') await expect(switchControl(page, name, exact)).toBeChecked();
  else await expect(switchControl(page, name, exact)).toBeDisabled();
}

/** A radio button of the form, by its label (its start unless `exact`). */
function radio(page: Page, name: string, exact: boolean) {
  return page.getByRole('radio', { name, exact });
}

/** `force`: the radio is checked even where its own input does not take the click (the primary login method). */
export async function checkRadio(page: Page, name: string, options?: { force: boolean }): Promise<void> {
  await radio(page, name, false).check(options);
}

export async function expectRadio(page: Page, name: string, state: 'checked' | 'enabled' | 'disabled', exact = false): Promise<void> {
  if (state === 'checked') await expect(radio(page, name, exact)).toBeChecked();
  else if (state === 'enabled') await expect(radio(page, name, exact)).toBeEnabled();
  else await expect(radio(page, name, exact)).toBeDisabled();
}

/** OpenID Connect: the project's issuer address (read only). */
export async function expectIssuer(page: Page, value: string | RegExp): Promise<void> {
  await expect(page.getByRole('textbox', { name: 'OIDC Issuer' })).toHaveValue(value);
}

/** OpenID Connect: a PKCE method's checkbox (S256, Plain). */
function pkceMethod(page: Page, name: string) {
  return page.getByRole('checkbox', { name });
}

export async function checkPkceMethod(page: Page, name: string): Promise<void> {
  await pkceMethod(page, name).check();
}

export async function uncheckPkceMethod(page: Page, name: string): Promise<void> {
  await pkceMethod(page, name).uncheck();
}

export async function expectPkceMethodChecked(page: Page, name: string): Promise<void> {
  await expect(pkceMethod(page, name)).toBeChecked();
}

/** A settings page's History button: it opens the history drawer of the page. */
export async function clickHistory(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'History' }).click();
}

/** The history drawer of a settings page ("History of Branding"). */
function historyDrawer(page: Page, section: string) {
  return page.getByRole('dialog', { name: `History of ${section}` });
}

/** The drawer lists a change of a setting (its row, by the setting's key) that says `text`. */
export async function expectHistoryRow(page: Page, section: string, row: RegExp, text: string): Promise<void> {
  await expect(historyDrawer(page, section).getByRole('row', { name: row })).toContainText(text);
}

/** Each change in the drawer is labelled by what it was ("Saved", "Signing key rotated"), never by its raw action. */
export async function expectHistoryAction(page: Page, section: string, label: string): Promise<void> {
  await expect(historyDrawer(page, section).getByText(label, { exact: true }).first()).toBeVisible();
  await expect(historyDrawer(page, section).getByText(/^history\.actions\./i)).toHaveCount(0);
}

/** The drawer slides in: waits until its animations have finished and it stands still. */
export async function expectHistoryDrawerStill(page: Page, section: string): Promise<void> {
  await historyDrawer(page, section).evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
}

/** The drawer's "Restore the earlier value of <key>": the earlier value goes back into the form. */
export async function clickRestoreEarlierValue(page: Page, section: string, key: string): Promise<void> {
  await historyDrawer(page, section)
    .getByRole('button', { name: `Restore the earlier value of ${key}` })
    .click();
}

/** General's danger zone: the Close project button is there, or not (a closed project). */
export async function expectCloseProjectButton(page: Page, present: boolean): Promise<void> {
  const button = page.getByRole('button', { name: 'Close project' });
  if (present) await expect(button).toBeVisible();
  else await expect(button).toHaveCount(0);
}

/** General's Close project: opens the dialog that asks for the project's name. */
export async function clickCloseProject(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Close project' }).click();
}

function closeDialog(page: Page) {
  return page.getByRole('dialog', { name: 'Close this project?' });
}

function confirmClose(page: Page) {
  return closeDialog(page).getByRole('button', { name: 'Close project' });
}

/** The dialog's Close project, which waits for the project's name. */
export async function expectConfirmCloseEnabled(page: Page, enabled: boolean): Promise<void> {
  if (enabled) await expect(confirmClose(page)).toBeEnabled();
  else await expect(confirmClose(page)).toBeDisabled();
}

/** The dialog's Project name: the name typed to confirm. */
export async function fillCloseConfirmation(page: Page, name: string): Promise<void> {
  await closeDialog(page).getByRole('textbox', { name: 'Project name' }).fill(name);
}

/** The dialog's Close project; the dialog closes. */
export async function clickConfirmClose(page: Page): Promise<void> {
  await confirmClose(page).click();
  await expect(closeDialog(page)).toBeHidden();
}

/** OpenID Connect: "Rotate signing key", confirmed in its dialog (issue 22). */
export async function rotateSigningKey(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Rotate signing key' }).click();
  await page.getByRole('dialog', { name: 'Rotate signing key' }).getByRole('button', { name: 'Rotate' }).click();
  await expect(page.getByRole('dialog', { name: 'Rotate signing key' })).toBeHidden();
}

/** OpenID Connect: the signing keys table's statuses, top to bottom ("Signing", "Published until …"). */
export async function expectSigningKeyStatuses(page: Page, statuses: Array<string | RegExp>): Promise<void> {
  const rows = page.getByRole('table', { name: 'Signing keys' }).getByRole('row');
  await expect(rows).toHaveCount(statuses.length + 1);
  for (const [index, status] of statuses.entries())
    await expect(
      rows
        .nth(index + 1)
        .getByRole('cell')
        .nth(2),
    ).toHaveText(status);
}
