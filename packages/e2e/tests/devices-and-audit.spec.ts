import { api, projectPermission } from '@latchkey/domain';
import { callApi, callApiOk, createProjectThroughApi, revokeDeviceThroughApi } from '../support/call-api.ts';
import { setPermissions } from '../support/database.ts';
import {
  auditRow,
  clickRevokeAllMatching,
  clickRevokeDevice,
  closeDialog,
  deviceRow,
  expectDeviceRow,
  expectFilterSummary,
  expectNoDeviceActions,
  exportList,
  fillListFilter,
  goToAudit,
  goToDevices,
  listRows,
  openAuditDetails,
  revokeAllMatching,
  todayAsShown,
} from '../support/devices-pages.ts';
import { expect, expectAccessible, test } from '../support/fixtures.ts';
import { saveShots } from '../support/shots.ts';
import { expectAlert, expectForbidden } from '../support/layout.ts';
import { expectPasskeyRevoked, fillIdentityAndContinue, goToAppSignIn, registerPasskey } from '../support/passkey-pages.ts';
import { connectTestAppThroughApi, startRelyingParty, type RelyingParty } from '../support/relying-party.ts';
import { newEmail, signIn, signInInNewContext } from '../support/sign-in.ts';

let app: RelyingParty;
test.beforeAll(async () => {
  app = await startRelyingParty();
});
test.afterAll(async () => app?.close());

test('a project admin finds a user’s device, revokes it, and finds the revocation and the refused sign-in after it in the audit log', async ({
  page,
  browser,
  baseURL,
}) => {
  const projectName = `Devices shop ${Date.now().toString(36)}`;
  const adminEmail = newEmail('device-admin');
  const projectId = await test.step('an admin creates a project with the test app', async () => {
    await signIn(page, adminEmail);
    const id = await createProjectThroughApi(page, projectName);
    await connectTestAppThroughApi(page, app, id, baseURL);
    return id;
  });

  const lost = newEmail('lost-phone');
  const other = newEmail('other-user');
  const { context, user } = await test.step('two end users each create a passkey through the test app', async () => {
    const first = await registerPasskey(browser, app, projectName, lost);
    const second = await registerPasskey(browser, app, projectName, other);
    await second.context.close();
    return first;
  });

  await test.step('the admin sees both devices, newest first, and filters by one user', async () => {
    await goToDevices(page, projectId);
    await expect(listRows(page, 'Devices')).toHaveCount(2);
    await expect(listRows(page, 'Devices').first()).toContainText(other);
    await expectDeviceRow(page, lost, 'Active');
    await expect(deviceRow(page, lost)).toContainText(todayAsShown());
    await saveShots(page, 'devices', { phone: true });
    await expectAccessible(page);
    await fillListFilter(page, 'Email', lost);
    await expect(listRows(page, 'Devices')).toHaveCount(1);
    await expectDeviceRow(page, lost, 'Active');
    await expectFilterSummary(page, `Email: ${lost}`);
  });

  await test.step('revokes it through the confirm dialog: the row says Revoked, and says so after a reload', async () => {
    await clickRevokeDevice(page, lost);
    await expectDeviceRow(page, lost, 'Revoked');
    await expectNoDeviceActions(page, lost);
    await page.reload();
    await expectDeviceRow(page, lost, 'Revoked');
    await saveShots(page, 'devices-filtered-revoked', { phone: true });
  });

  await test.step('a device revoked meanwhile elsewhere: the second revocation changes nothing and says so on the button', async () => {
    await fillListFilter(page, 'Email', other);
    await expectDeviceRow(page, other, 'Active');
    const { list } = await callApiOk(page, api.listDevices, { params: { project: projectId } });
    const device = list.find((d) => d.userId === other);
    expect(device).toBeDefined();
    await revokeDeviceThroughApi(page, projectId, device?.mpinId as string);
    await clickRevokeDevice(page, other);
    // The dialog closed; the row says the revocation failed and why, and (the list read again)
    // shows what the server holds: Revoked, with nothing left to try.
    await expect(deviceRow(page, other)).toContainText('Failed to revoke device');
    await expect(deviceRow(page, other)).toContainText('This device is already revoked');
    await expectDeviceRow(page, other, 'Revoked');
    await expectNoDeviceActions(page, other);
    await expectAccessible(page);
    await saveShots(page, 'devices-revoke-failed', { fullPage: false });
  });

  await test.step("the end user's next sign-in is refused", async () => {
    await context.clearCookies();
    await goToAppSignIn(user, app.url, projectName);
    await fillIdentityAndContinue(user, lost);
    await expectPasskeyRevoked(user);
    await context.close();
  });

  await test.step('the audit log holds the revocation and the refused sign-in after it, with their details', async () => {
    await goToAudit(page, projectId);
    await expect(auditRow(page, 'console', 'success').filter({ hasText: lost })).toHaveCount(1);
    await saveShots(page, 'audit', { phone: true });
    await expectAccessible(page);
    await fillListFilter(page, 'Account', lost);
    const revocation = auditRow(page, lost, 'console', 'success');
    const refusal = auditRow(page, lost, 'oidc', 'denied');
    await expect(revocation).toHaveCount(1);
    await expect(refusal).toHaveCount(1);
    // Newest first: the refusal is listed above the revocation.
    const rows = await listRows(page, 'Audit events').allTextContents();
    expect(rows.findIndex((r) => r.includes('denied'))).toBeLessThan(rows.findIndex((r) => r.includes('console')));

    const revoked = await openAuditDetails(page, revocation);
    expect(revoked).toMatchObject({ userID: lost, scope: 'console', eventStatus: 'success' });
    expect(JSON.stringify(revoked)).toContain('device.revoke');
    expect(JSON.stringify(revoked)).toContain('PORTAL_REVOKE');
    await expectAccessible(page);
    await saveShots(page, 'audit-details', { fullPage: false });
    await closeDialog(page);

    const refused = await openAuditDetails(page, refusal);
    expect(refused).toMatchObject({ userID: lost, scope: 'oidc', eventStatus: 'denied' });
    await closeDialog(page);
  });
});

test('an admin exports the audit log and the devices, and revokes every device of a filter in one go', async ({ page, browser, baseURL }) => {
  const projectName = `Bulk shop ${Date.now().toString(36)}`;
  await signIn(page, newEmail('bulk-admin'));
  const projectId = await createProjectThroughApi(page, projectName);
  await connectTestAppThroughApi(page, app, projectId, baseURL);
  const people = [newEmail('bulk-one'), newEmail('bulk-two')];
  for (const email of people) await (await registerPasskey(browser, app, projectName, email)).context.close();

  await test.step('the audit log downloads as JSON Lines: one event per line, the list items as the API answers them', async () => {
    await goToAudit(page, projectId);
    const file = await exportList(page, 'JSON Lines');
    expect(file.filename).toMatch(new RegExp(`^audit-${projectId}-\\d{4}-\\d{2}-\\d{2}-\\d{4}-\\d{2}-\\d{2}\\.jsonl$`));
    const events = file.text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { userID: string | null; scope: string; createdAt: string });
    for (const email of people) expect(events.some((e) => e.userID === email && e.scope === 'oidc')).toBe(true);
    // Newest first, as the list.
    expect(events.map((e) => e.createdAt)).toEqual([...events.map((e) => e.createdAt)].sort().reverse());
  });

  await test.step('every active device of the filter is revoked after a dialog that states their count', async () => {
    await goToDevices(page, projectId);
    await expect(listRows(page, 'Devices')).toHaveCount(2);
    await revokeAllMatching(page, 2, async () => {
      await expectAccessible(page);
      await saveShots(page, 'devices-bulk-confirm', { fullPage: false });
    });
    for (const email of people) await expectDeviceRow(page, email, 'Revoked');
    // Nothing is left to revoke: asking again says so.
    await clickRevokeAllMatching(page);
    await expectAlert(page, 'No active device matches the filter');
  });

  await test.step('the devices download as CSV with their status, and each revocation is its own audit event', async () => {
    const file = await exportList(page, 'CSV (spreadsheet)');
    const [header, ...records] = file.text.trimEnd().split('\r\n');
    expect(header?.split(',')).toContain('revoked');
    expect(records).toHaveLength(2);
    for (const email of people) expect(records.find((r) => r.includes(email))).toContain(',true,');

    const { list } = await callApiOk(page, api.listAuditEvents, { params: { project: projectId }, query: { scope: 'console' } });
    const revocations = list.filter((e) => JSON.stringify(e.details).includes('device.revoke'));
    expect(revocations.map((e) => e.userID).sort()).toEqual([...people].sort());
    for (const event of revocations) expect(event.details).toMatchObject({ bulk: true });
  });
});

test('an account holding only usage on a project gets the 403 page at its devices and its audit log', async ({ browser, baseURL, page }) => {
  await signIn(page, newEmail('owner-of-devices'));
  const projectId = await createProjectThroughApi(page, 'Guarded devices');

  const viewerEmail = newEmail('usage-viewer');
  const { page: viewer, close } = await signInInNewContext(browser, baseURL as string, viewerEmail);
  await setPermissions(viewerEmail, [projectPermission(projectId, 'usage')]);

  for (const path of ['devices', 'audit']) {
    await viewer.goto(`/project/${projectId}/${path}`);
    await expectForbidden(viewer);
    await expectAccessible(viewer);
  }
  expect((await callApi(viewer, api.listDevices, { params: { project: projectId } })).status()).toBe(403);
  expect((await callApi(viewer, api.listAuditEvents, { params: { project: projectId } })).status()).toBe(403);
  await close();
});
