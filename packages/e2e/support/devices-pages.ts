import { expect, type Locator, type Page } from '@playwright/test';

// The devices list (Device Registrations) and the audit log of a project.

export async function goToDevices(page: Page, projectId: string, hash = ''): Promise<void> {
  await page.goto(`/project/${projectId}/devices${hash}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Device Registrations' })).toBeVisible();
}

export async function goToAudit(page: Page, projectId: string, hash = ''): Promise<void> {
  await page.goto(`/project/${projectId}/audit${hash}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Audit Log' })).toBeVisible();
}

/** A text filter of the list's filter bar; the list follows once typing pauses (the address's hash says so). */
export async function fillListFilter(page: Page, label: string, text: string): Promise<void> {
  await page.getByRole('search', { name: 'Filters' }).getByRole('textbox', { name: label, exact: true }).fill(text);
  await expect(page).toHaveURL(new RegExp(`#.*=${encodeURIComponent(text).replace(/[.]/g, '\\.')}`));
}

/** The filter bar says `text` (what is filtered, e.g. `Email: a@b.c`). */
export async function expectFilterSummary(page: Page, text: string): Promise<void> {
  await expect(page.getByRole('search', { name: 'Filters' })).toContainText(text);
}

/** The rows of the list (the header row left out). */
export function listRows(page: Page, table: string): Locator {
  return page.getByRole('table', { name: table }).locator('tbody').getByRole('row');
}

/**
 * Every cell the table's rows show is wholly in view once the page is scrolled to it: no status or
 * action cut off at the table's edge, as when a table wider than a phone scrolled sideways and a
 * passkey's "Revocă" read "Revo" (issue 35). Only the page scrolls, up or down: scrolling the cell
 * into view would also scroll the table's box sideways and hide the fault.
 */
export async function expectRowsWhollyInView(page: Page, table: string): Promise<void> {
  const rows = listRows(page, table);
  await expect(rows.first()).toBeVisible();
  for (const cell of await rows.getByRole('cell').all()) {
    await cell.evaluate((element) => window.scrollBy(0, element.getBoundingClientRect().top - window.innerHeight / 3));
    await expect(cell, `a cell of ${table}`).toBeInViewport({ ratio: 1 });
  }
}

export function deviceRow(page: Page, userId: string): Locator {
  return listRows(page, 'Devices').filter({ hasText: userId });
}

export async function expectDeviceRow(page: Page, userId: string, status: 'Active' | 'Revoked'): Promise<void> {
  const row = deviceRow(page, userId);
  await expect(row).toHaveCount(1);
  await expect(row.getByText(status, { exact: true })).toBeVisible();
}

/** Nothing left to do on the device: its row has no button. */
export async function expectNoDeviceActions(page: Page, userId: string): Promise<void> {
  await expect(deviceRow(page, userId).getByRole('button')).toHaveCount(0);
}

/** The row's Revoke, then the confirm dialog's Revoke. */
export async function clickRevokeDevice(page: Page, userId: string): Promise<void> {
  await deviceRow(page, userId)
    .getByRole('button', { name: /^Revoke / })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Revoke device' });
  await expect(dialog).toContainText('Do you want to revoke the device');
  await dialog.getByRole('button', { name: 'Revoke', exact: true }).click();
  await expect(dialog).toBeHidden();
}

/** An audit row by what its cells say (account, scope, result…). */
export function auditRow(page: Page, ...cells: string[]): Locator {
  let rows = listRows(page, 'Audit events');
  for (const text of cells) rows = rows.filter({ has: page.getByRole('cell', { name: text, exact: true }) });
  return rows;
}

/** Opens an event's details: answers the event the dialog shows as JSON, then closes it. */
export async function openAuditDetails(page: Page, row: Locator): Promise<Record<string, unknown>> {
  await row.getByRole('button', { name: /^Details of the event of / }).click();
  const dialog = page.getByRole('dialog', { name: 'Event details' });
  await expect(dialog).toBeVisible();
  const json = (await dialog.getByLabel('Event details').textContent()) ?? '';
  return JSON.parse(json) as Record<string, unknown>;
}

export async function closeDialog(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Today as the console shows dates (spec §9: D Mon YYYY, UTC). */
export function todayAsShown(): string {
  const now = new Date();
  return `${now.getUTCDate()} ${MONTHS[now.getUTCMonth()]} ${now.getUTCFullYear()}`;
}

/** The page's Export menu, a format, and the file the browser downloads: its name and text. */
export async function exportList(page: Page, format: 'CSV (spreadsheet)' | 'JSON Lines'): Promise<{ filename: string; text: string }> {
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: format }).click();
  const download = await downloading;
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  await expect(page.getByRole('alert').filter({ hasText: `exported to ${download.suggestedFilename()}` })).toBeVisible();
  return { filename: download.suggestedFilename(), text: Buffer.concat(chunks).toString('utf8') };
}

/** The devices list's "Revoke all matching" button (see revokeAllMatching for the whole run). */
export async function clickRevokeAllMatching(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Revoke all matching' }).click();
}

/** "Revoke all matching": the dialog must state `count` devices; confirmed, the run ends in its notification. */
export async function revokeAllMatching(page: Page, count: number, onDialog?: () => Promise<void>): Promise<void> {
  await clickRevokeAllMatching(page);
  const title = `Revoke ${count} device${count === 1 ? '' : 's'}`;
  const dialog = page.getByRole('dialog', { name: title });
  await expect(dialog).toContainText('matching the current filter, registered up to');
  await onDialog?.();
  await dialog.getByRole('button', { name: title }).click();
  await expect(page.getByRole('alert').filter({ hasText: `${count} device${count === 1 ? '' : 's'} revoked` })).toBeVisible();
  await expect(dialog).toBeHidden();
}
