import { expect, type Locator, type Page } from '@playwright/test';

// A project's dashboard (totals, the usage chart and its table, the map of events by country) and
// the usage of all projects.

/** A figure of the Totals region: the value shown next to its label. */
export async function expectTotal(page: Page, label: string, value: string): Promise<void> {
  const totals = page.getByRole('region', { name: 'Totals' });
  await expect(totals.getByText(label, { exact: true }).locator('xpath=following-sibling::*[1]')).toHaveText(value);
}

/** A chart (an image named by what it draws) anywhere on the page. */
export async function expectChart(page: Page, name: RegExp): Promise<void> {
  await expect(page.getByRole('img', { name })).toBeVisible();
}

function map(page: Page): Locator {
  return page.getByRole('region', { name: 'Events by country' });
}

export async function clickShowMapTable(page: Page): Promise<void> {
  await map(page).getByRole('button', { name: 'Show the data as a table' }).click();
}

/** The map's table: the country's row says `text`. */
export async function expectCountryRow(page: Page, country: RegExp, text: string): Promise<void> {
  await expect(map(page).getByRole('row', { name: country })).toContainText(text);
}

function usage(page: Page): Locator {
  return page.getByRole('region', { name: 'Usage' });
}

/** The Usage region's chart, named by what it draws. */
export async function expectUsageChart(page: Page, name: RegExp): Promise<void> {
  await expect(usage(page).getByRole('img', { name })).toBeVisible();
}

export async function clickShowUsageTable(page: Page): Promise<void> {
  await usage(page).getByRole('button', { name: 'Show the data as a table' }).click();
}

/** The usage table is open: its button offers to hide it. */
export async function expectUsageTableOpen(page: Page): Promise<void> {
  await expect(usage(page).getByRole('button', { name: 'Hide the table' })).toBeVisible();
}

function usageTable(page: Page, table: string): Locator {
  return usage(page).getByRole('table', { name: table });
}

/** The usage table has `count` rows (the header row left out). */
export async function expectUsageTableRows(page: Page, table: string, count: number): Promise<void> {
  await expect(usageTable(page, table).locator('tbody').getByRole('row')).toHaveCount(count);
}

/** The usage table's cell of a row (by its start) and a series (its link): it shows `value`. */
export async function expectUsageCell(page: Page, table: string, row: RegExp, series: RegExp, value: string): Promise<void> {
  await expect(usageTable(page, table).getByRole('row', { name: row }).getByRole('link', { name: series })).toHaveText(value);
}

/** The colour the Usage chart draws the sign-ins (oidc) series in. */
const SIGN_INS_COLOUR = '#4c6ef5';

/**
 * Clicks the middle of the sign-ins' column of the Usage chart, once it stands in place: the tallest
 * SVG shape drawn in their series' colour (the legend's mark is not in the SVG).
 */
export async function clickTallestSignInsColumn(page: Page): Promise<void> {
  const bars = usage(page).locator(`svg rect[fill="${SIGN_INS_COLOUR}"]`);
  const tallestBar = async () => {
    const heights = await bars.evaluateAll((shapes) => shapes.map((s) => s.getBoundingClientRect().height));
    const h = Math.max(0, ...heights);
    return { index: heights.indexOf(h), h };
  };
  // The chart is drawn again once its box is measured: wait until the column stands at its height.
  let previous = -1;
  await expect
    .poll(async () => {
      const { h } = await tallestBar();
      const settled = h > 20 && Math.abs(h - previous) < 0.5;
      previous = h;
      return settled;
    })
    .toBe(true);
  // Its middle, scrolled into view first (the chart may stand below the window's fold).
  await bars.nth((await tallestBar()).index).click();
}

export async function clickUsageOfAllProjects(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Usage of all projects' }).click();
}

function topProjectRow(page: Page, projectName: string): Locator {
  return page.getByRole('table', { name: 'Projects with the most events' }).getByRole('row', { name: new RegExp(`^${projectName}`) });
}

/** The table of the busiest projects: the project's row says `text`. */
export async function expectTopProjectRow(page: Page, projectName: string, text: string): Promise<void> {
  await expect(topProjectRow(page, projectName)).toContainText(text);
}

export async function clickTopProject(page: Page, projectName: string): Promise<void> {
  await topProjectRow(page, projectName).getByRole('link', { name: projectName }).click();
}
