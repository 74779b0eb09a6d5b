import { createProjectThroughApi } from '../support/call-api.ts';
import {
  clickShowMapTable,
  clickShowUsageTable,
  clickTallestSignInsColumn,
  clickTopProject,
  clickUsageOfAllProjects,
  expectChart,
  expectCountryRow,
  expectTopProjectRow,
  expectTotal,
  expectUsageCell,
  expectUsageChart,
  expectUsageTableOpen,
  expectUsageTableRows,
} from '../support/dashboard-pages.ts';
import { auditRow, listRows } from '../support/devices-pages.ts';
import { expect, expectAccessible, test } from '../support/fixtures.ts';
import { saveShots } from '../support/shots.ts';
import { registerPasskey } from '../support/passkey-pages.ts';
import { expectPageTitle } from '../support/project-pages.ts';
import { connectTestAppThroughApi, startRelyingParty, type RelyingParty } from '../support/relying-party.ts';
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
  await connectTestAppThroughApi(page, app, projectId, baseURL);
  const people = [newEmail('dash-one'), newEmail('dash-two')];
  // Two end users behind a proxy the server trusts, from a British address: each registers a passkey and is signed in.
  for (const email of people) await (await registerPasskey(browser, app, projectName, email, BRITISH_ADDRESS)).context.close();

  await test.step('the year shows them at once: totals, the month, and Great Britain on the map', async () => {
    await page.goto(`/project/${projectId}/dashboard`);
    await expectPageTitle(page, 'Dashboard');
    await expectTotal(page, 'Device registrations', '2');
    await expectChart(page, /^Column chart of registrations and events by month/);
    await clickShowMapTable(page);
    await expectCountryRow(page, /United Kingdom \(GB\)/, '2');
    await saveShots(page, 'dashboard-year', { phone: true });
    await expectAccessible(page);
  });

  await test.step('this month, by day: the sign-ins are in today’s column', async () => {
    const now = new Date();
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString().slice(0, 10);
    const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)).toISOString().slice(0, 10);
    await page.goto(`/project/${projectId}/dashboard#fromDate=${first}&toDate=${last}`);
    await expectUsageChart(page, /^Column chart of registrations and events by day/);
    await clickShowUsageTable(page);
    await expectUsageTableRows(page, 'Usage by day', Number(last.slice(8)));
    const todayLabel = `${now.getUTCDate()} ${now.toLocaleString('en', { month: 'short', timeZone: 'UTC' })}`;
    await expectUsageCell(page, 'Usage by day', new RegExp(`^${todayLabel} `), /Registrations \(issued\)/, '2');
    await saveShots(page, 'dashboard-month');
  });

  await test.step('today, by hour: the sign-ins are in the current hour', async () => {
    await page.goto(`/project/${projectId}/dashboard#fromDate=${today()}&toDate=${today()}`);
    await expectUsageChart(page, /^Column chart of registrations and events by hour/);
    // The table opened for the month stays open as the range changes.
    await expectUsageTableOpen(page);
    await expectUsageTableRows(page, 'Usage by hour', 24);
    const hour = `${String(new Date().getUTCHours()).padStart(2, '0')}:00`;
    await expectUsageCell(page, 'Usage by hour', new RegExp(`^${hour}`), /Sign-ins \(oidc\)/, '2');
    await saveShots(page, 'dashboard-day');
  });

  await test.step('the column of the sign-ins opens the audit log filtered to them', async () => {
    // The columns grow into place when the range changes: the click waits until the column stands at its height.
    await clickTallestSignInsColumn(page);
    await expect(page).toHaveURL(new RegExp(`/project/${projectId}/audit#.*scope=oidc.*result=success`));
    await expectPageTitle(page, 'Audit Log');
    await expect(listRows(page, 'Audit events')).toHaveCount(2);
    for (const email of people) await expect(auditRow(page, email, 'oidc', 'success')).toHaveCount(1);
  });
});

test('an administrator of every project sees their usage together, and the busiest projects first', async ({ page, browser, baseURL }) => {
  const projectName = `Global usage shop ${Date.now().toString(36)}`;
  await signIn(page, OWNER_EMAIL);
  const projectId = await createProjectThroughApi(page, projectName);
  await connectTestAppThroughApi(page, app, projectId, baseURL);
  await (await registerPasskey(browser, app, projectName, newEmail('global-one'), BRITISH_ADDRESS)).context.close();

  await page.goto('/');
  await clickUsageOfAllProjects(page);
  await expect(page).toHaveURL(/\/usage$/);
  await expectPageTitle(page, 'Usage of all projects');
  await expectTopProjectRow(page, projectName, '1');
  await saveShots(page, 'global-usage');
  await expectAccessible(page);
  await clickTopProject(page, projectName);
  await expect(page).toHaveURL(new RegExp(`/project/${projectId}/dashboard`));
});
