import type { Page } from '@playwright/test';
import { createAppWithKeysThroughApi, createProjectThroughApi } from '../support/call-api.ts';
import { auditRow, listRows } from '../support/devices-pages.ts';
import { expect, expectAccessible, test } from '../support/fixtures.ts';
import { saveShots } from '../support/shots.ts';
import { registerPasskey } from '../support/passkey-pages.ts';
import { startRelyingParty, type RelyingParty } from '../support/relying-party.ts';
import { newEmail, OWNER_EMAIL, signIn } from '../support/sign-in.ts';

/** A public address in Great Britain (the offline GeoIP database's answer, as the server tests use it). */
const BRITISH_ADDRESS = '81.2.69.160';

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

let app: RelyingParty;
test.beforeAll(async () => {
  app = await startRelyingParty();
});
test.afterAll(async () => app?.close());

test('sign-ins a second ago show in today’s hour and on the map, and their column opens them in the audit log', async ({
  page,
  browser,
  baseURL,
}) => {
  const projectName = `Dashboard shop ${Date.now().toString(36)}`;
  await signIn(page, newEmail('dashboard-admin'));
  const projectId = await createProjectThroughApi(page, projectName);
  const keys = await createAppWithKeysThroughApi(page, projectId, [app.redirectUri]);
  app.useClient({ issuer: `${baseURL}/p/${projectId}`, clientId: keys.clientId, clientSecret: keys.clientSecret });
  const people = [newEmail('dash-one'), newEmail('dash-two')];
  // Two end users behind a proxy the server trusts, from a British address: each registers a passkey and is signed in.
  for (const email of people) await (await registerPasskey(browser, app, projectName, email, BRITISH_ADDRESS)).context.close();

  await test.step('the year shows them at once: totals, the month, and Great Britain on the map', async () => {
    await page.goto(`/project/${projectId}/dashboard`);
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    const totals = page.getByRole('region', { name: 'Totals' });
    await expect(totals.getByText('Device registrations', { exact: true }).locator('xpath=following-sibling::*[1]')).toHaveText('2');
    await expect(page.getByRole('img', { name: /^Column chart of registrations and events by month/ })).toBeVisible();
    const map = page.getByRole('region', { name: 'Events by country' });
    await map.getByRole('button', { name: 'Show the data as a table' }).click();
    await expect(map.getByRole('row', { name: /United Kingdom \(GB\)/ })).toContainText('2');
    await saveShots(page, 'dashboard-year');
    await expectAccessible(page);
  });

  await test.step('this month, by day: the sign-ins are in today’s column', async () => {
    const now = new Date();
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString().slice(0, 10);
    const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)).toISOString().slice(0, 10);
    await page.goto(`/project/${projectId}/dashboard#fromDate=${first}&toDate=${last}`);
    const chart = page.getByRole('region', { name: 'Usage' });
    await expect(chart.getByRole('img', { name: /^Column chart of registrations and events by day/ })).toBeVisible();
    await chart.getByRole('button', { name: 'Show the data as a table' }).click();
    const table = chart.getByRole('table', { name: 'Usage by day' });
    await expect(listRowsOf(table)).toHaveCount(Number(last.slice(8)));
    const todayLabel = `${now.getUTCDate()} ${now.toLocaleString('en', { month: 'short', timeZone: 'UTC' })}`;
    await expect(table.getByRole('row', { name: new RegExp(`^${todayLabel} `) }).getByRole('link', { name: /Registrations \(issued\)/ })).toHaveText(
      '2',
    );
    await saveShots(page, 'dashboard-month');
  });

  await test.step('today, by hour: the sign-ins are in the current hour', async () => {
    await page.goto(`/project/${projectId}/dashboard#fromDate=${today()}&toDate=${today()}`);
    const chart = page.getByRole('region', { name: 'Usage' });
    await expect(chart.getByRole('img', { name: /^Column chart of registrations and events by hour/ })).toBeVisible();
    // The table opened for the month stays open as the range changes.
    await expect(chart.getByRole('button', { name: 'Hide the table' })).toBeVisible();
    const table = chart.getByRole('table', { name: 'Usage by hour' });
    await expect(listRowsOf(table)).toHaveCount(24);
    const hour = `${String(new Date().getUTCHours()).padStart(2, '0')}:00`;
    await expect(table.getByRole('row', { name: new RegExp(`^${hour}`) }).getByRole('link', { name: /Sign-ins \(oidc\)/ })).toHaveText('2');
    await saveShots(page, 'dashboard-day');
  });

  await test.step('the column of the sign-ins opens the audit log filtered to them', async () => {
    const chart = page.getByRole('region', { name: 'Usage' });
    // The sign-ins' column is the tallest shape drawn in their series' colour (the legend's mark is smaller).
    const bars = chart.locator('svg path[fill="#4c6ef5"]');
    const tallestBar = async () => {
      const boxes = await bars.evaluateAll((paths) =>
        paths.map((p) => p.getBoundingClientRect()).map((r) => ({ x: r.x + r.width / 2, y: r.y + r.height / 2, h: r.height })),
      );
      return boxes.sort((a, b) => b.h - a.h)[0] ?? { x: 0, y: 0, h: 0 };
    };
    // The columns grow into place when the range changes: wait until the column stands at its height.
    let previous = -1;
    await expect
      .poll(async () => {
        const h = (await tallestBar()).h;
        const settled = h > 20 && Math.abs(h - previous) < 0.5;
        previous = h;
        return settled;
      })
      .toBe(true);
    const tallest = await tallestBar();
    await page.mouse.click(tallest.x, tallest.y);
    await expect(page).toHaveURL(new RegExp(`/project/${projectId}/audit#.*scope=oidc.*result=success`));
    await expect(page.getByRole('heading', { level: 1, name: 'Audit Log' })).toBeVisible();
    await expect(listRows(page, 'Audit events')).toHaveCount(2);
    for (const email of people) await expect(auditRow(page, email, 'oidc', 'success')).toHaveCount(1);
  });
});

function listRowsOf(table: ReturnType<Page['getByRole']>) {
  return table.locator('tbody').getByRole('row');
}

test('an administrator of every project sees their usage together, and the busiest projects first', async ({ page, browser, baseURL }) => {
  const projectName = `Global usage shop ${Date.now().toString(36)}`;
  await signIn(page, OWNER_EMAIL);
  const projectId = await createProjectThroughApi(page, projectName);
  const keys = await createAppWithKeysThroughApi(page, projectId, [app.redirectUri]);
  app.useClient({ issuer: `${baseURL}/p/${projectId}`, clientId: keys.clientId, clientSecret: keys.clientSecret });
  await (await registerPasskey(browser, app, projectName, newEmail('global-one'), BRITISH_ADDRESS)).context.close();

  await page.goto('/');
  await page.getByRole('link', { name: 'Usage of all projects' }).click();
  await expect(page).toHaveURL(/\/usage$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Usage of all projects' })).toBeVisible();
  const top = page.getByRole('table', { name: 'Projects with the most events' });
  const row = top.getByRole('row', { name: new RegExp(`^${projectName}`) });
  await expect(row).toContainText('1');
  await saveShots(page, 'global-usage');
  await expectAccessible(page);
  await row.getByRole('link', { name: projectName }).click();
  await expect(page).toHaveURL(new RegExp(`/project/${projectId}/dashboard`));
});
