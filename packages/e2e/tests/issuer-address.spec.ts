import { createProjectThroughApi } from '../support/call-api.ts';
import { expectAccessible, test } from '../support/fixtures.ts';
import { expectDomainPasskeysNote, expectIssuerPlacement, expectNoMoveOffered } from '../support/issuer-pages.ts';
import { fillSetting, goToSettings } from '../support/settings-pages.ts';
import { saveShots } from '../support/shots.ts';
import { OWNER_EMAIL, signIn } from '../support/sign-in.ts';

// docs/decisions/0047, as an administrator meets it on a server without an issuer domain (the suite's
// server runs with ISSUER_DOMAIN=none): the issuer on the shared path, no move offered, and the custom
// domain's warning that passkeys made before stop working at a new domain.

test('the owner sees where the issuer is and what a custom domain would do to its passkeys', async ({ page }) => {
  await signIn(page, OWNER_EMAIL);
  const projectId = await createProjectThroughApi(page, `Issuer place ${Date.now().toString(36)}`);

  await test.step('OpenID Connect: the shared path and its passkey domain; no host to move to on this server', async () => {
    await goToSettings(page, projectId, 'oidc', 'OpenID Connect');
    await expectIssuerPlacement(page, new RegExp(`^http://localhost:\\d+/p/${projectId}$`), 'Shared path', 'localhost');
    await expectNoMoveOffered(page);
    await expectAccessible(page);
    await saveShots(page, 'issuer-shared-path', { phone: true });
  });

  await test.step('General: passkeys made before stop working at a new domain, a warning once one is typed', async () => {
    await goToSettings(page, projectId, 'settings', 'General settings');
    const note = /Passkeys made before stop working at a new domain/;
    await expectDomainPasskeysNote(page, note, { warning: false });
    await fillSetting(page, 'Project Domain', 'https://login.issuer-place.example');
    await expectDomainPasskeysNote(page, note, { warning: true });
    await expectAccessible(page);
    await saveShots(page, 'custom-domain-passkeys', { phone: true });
  });
});
