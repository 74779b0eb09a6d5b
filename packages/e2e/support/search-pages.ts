import { expect, type Page } from '@playwright/test';
import { listRows } from './devices-pages.ts';

// The command palette (issue 13 "Find anything"): Ctrl+K opens it anywhere; it lists the project's
// pages and what GET /search finds.

function palette(page: Page) {
  return page.getByRole('dialog', { name: 'Find anything' });
}

/** The top bar's Search button. */
function searchButton(page: Page) {
  return page.getByRole('button', { name: 'Search' });
}

/** Puts the focus on the top bar's Search button, so the palette has a place to give it back to. */
export async function focusSearchButton(page: Page): Promise<void> {
  await searchButton(page).focus();
}

export async function expectSearchButtonFocused(page: Page): Promise<void> {
  await expect(searchButton(page)).toBeFocused();
}

/** Ctrl+K: the palette opens with the focus in its search field. */
export async function openPalette(page: Page): Promise<void> {
  await page.keyboard.press('Control+k');
  await expect(palette(page).getByRole('combobox')).toBeFocused();
}

export async function expectPaletteClosed(page: Page): Promise<void> {
  await expect(palette(page)).toBeHidden();
}

/** Types into the palette's search field (the first option is the one Enter opens). */
export async function fillPalette(page: Page, text: string): Promise<void> {
  await palette(page).getByRole('combobox').fill(text);
}

/** Types into the palette and waits for an option naming `expected`. */
export async function search(page: Page, text: string, expected: string | RegExp): Promise<void> {
  await fillPalette(page, text);
  await expect(palette(page).getByRole('option', { name: expected }).first()).toBeVisible();
}

/** A group of the palette's options (Pages, Audit events…) holds `count` options. */
export async function expectPaletteGroup(page: Page, group: string, count: number): Promise<void> {
  await expect(palette(page).getByRole('group', { name: group }).getByRole('option')).toHaveCount(count);
}

export async function clickPaletteOption(page: Page, name: string | RegExp): Promise<void> {
  await palette(page).getByRole('option', { name }).click();
}

/** The option of one group (Users, Devices…) whose whole name is `name`. */
export async function clickPaletteOptionIn(page: Page, group: string, name: string): Promise<void> {
  await palette(page).getByRole('group', { name: group }).getByRole('option', { name, exact: true }).click();
}

/** The palette says it found nothing, and offers no option. */
export async function expectNothingFound(page: Page): Promise<void> {
  await expect(palette(page).getByRole('status')).toHaveText('Nothing found');
  await expect(palette(page).getByRole('option')).toHaveCount(0);
}

/**
 * The audit log the palette opened lists events of the day it asked for. (It asked before for a
 * table named "Audit log", which the page does not have: that check could never fail.)
 */
export async function expectAuditLogListsEvents(page: Page): Promise<void> {
  await expect(listRows(page, 'Audit events').first()).toBeVisible();
}
