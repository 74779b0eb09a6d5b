import { createServer, type Server } from 'node:http';
import { api } from '@latchkey/domain';
import type { Page } from '@playwright/test';
import { saveHostedShot } from '../support/shots.ts';
import { expectLanguagesDeclared, expectWcagClean } from '../support/axe.ts';
import { callApiOk, createAppWithKeysThroughApi, createProjectThroughApi } from '../support/call-api.ts';
import { expect, test } from '../support/fixtures.ts';
import {
  expectCodeField,
  expectHeading,
  expectLinkTo,
  expectLogo,
  expectLogoLoaded,
  expectNote,
  fillCodeAndSubmitIn,
  fillIdentityAndContinueIn,
} from '../support/hosted-pages.ts';
import { expectPageLanguage } from '../support/language-pages.ts';
import { startRelyingParty, type RelyingParty } from '../support/relying-party.ts';
import { freePort } from '../support/start-server.ts';
import { newEmail, readCode, signIn } from '../support/sign-in.ts';

// Issue 8 "Passwordless sign-in": a project's hosted page is its own — brand, language en/fr/ro,
// the browser-data warning — and passes axe (WCAG 2.2 AA) in light and dark (docs/decisions/0015);
// issue 20 (docs/decisions/0025): the whole axe check on each page in English, walked in light and
// in dark; French and Romanian walked in light for their texts and what a language changes for axe
// (the declared languages).
// HOSTED_PAGE_SHOTS=<dir> also saves screenshots of page 1 and the passkey offer.
const DISPLAY_NAME = 'Northwind Traders';

/** What a person reads on each page, per language: how they find their way. */
const READS = {
  en: {
    locale: 'en-GB',
    signIn: `Sign in to ${DISPLAY_NAME}`,
    field: 'Email',
    continue: 'Continue',
    code: 'Code',
    submitCode: 'Sign in',
    offer: 'Create a passkey',
    warning: 'Before you clear your browser data',
    refused: 'This application is disabled',
  },
  fr: {
    locale: 'fr-FR',
    signIn: `Se connecter à ${DISPLAY_NAME}`,
    field: 'Adresse e-mail',
    continue: 'Continuer',
    code: 'Code',
    submitCode: 'Se connecter',
    offer: 'Créer une clé d’accès',
    warning: 'Avant d’effacer les données de votre navigateur',
    refused: 'Cette application est désactivée',
  },
  ro: {
    locale: 'ro-RO',
    signIn: `Conectați-vă la ${DISPLAY_NAME}`,
    field: 'Adresă de e-mail',
    continue: 'Continuați',
    code: 'Cod',
    submitCode: 'Conectați-vă',
    offer: 'Creați o cheie de acces',
    warning: 'Înainte să ștergeți datele browserului',
    refused: 'Această aplicație este dezactivată',
  },
} as const;

/** A logo as a brand would publish it: dark artwork on a transparent background, from its own origin. */
const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="48" viewBox="0 0 200 48"><path d="M6 40 L24 8 L42 40 Z" fill="#0b7285"/><circle cx="24" cy="30" r="6" fill="#ffd43b"/><text x="52" y="32" font-family="Georgia, serif" font-size="22" font-weight="700" fill="#212529">Northwind</text></svg>`;

let app: RelyingParty;
let logoServer: Server;
let logoUrl: string;
test.beforeAll(async () => {
  app = await startRelyingParty();
  const port = await freePort();
  logoServer = createServer((_request, response) => response.writeHead(200, { 'content-type': 'image/svg+xml' }).end(LOGO_SVG));
  await new Promise<void>((ok) => logoServer.listen(port, '127.0.0.1', ok));
  logoUrl = `http://localhost:${port}/logo.svg`;
});
test.afterAll(async () => {
  await app?.close();
  await new Promise((ok) => (logoServer ? logoServer.close(ok) : ok(undefined)));
});

/** English: the whole WCAG 2.2 AA check in the walk's scheme; another language: its declared languages. */
async function expectAccessibleIn(page: Page, language: keyof typeof READS, where: string): Promise<void> {
  if (language === 'en') await expectWcagClean(page, where);
  else await expectLanguagesDeclared(page, where);
}

/** The walks: English in light and in dark (the page loaded in each), the other languages in light. */
const WALKS = [
  ['en', 'light'],
  ['en', 'dark'],
  ['fr', 'light'],
  ['ro', 'light'],
] as const;

test('the hosted page wears the project brand in en, fr and ro and passes axe (WCAG 2.2 AA) in light and dark', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const disabledAuthUrl = await test.step('a developer brands a project and registers the test app (and a disabled one)', async () => {
    await signIn(page, newEmail('brand-owner'));
    const id = await createProjectThroughApi(page, `Brand ${Date.now().toString(36)}`);
    const project = await callApiOk(page, api.getProject, { params: { project: id } });
    await callApiOk(page, api.updateProject, {
      params: { project: id },
      body: {
        ...project,
        displayName: DISPLAY_NAME,
        logoUrl,
        helpUrl: 'https://help.northwind.example/sign-in',
        supportEmail: 'support@northwind.example',
        supportPhone: '+40211234567',
        enableBrowserWarning: true,
      },
    });
    const keys = await createAppWithKeysThroughApi(page, id, [app.redirectUri]);
    const issuerUrl = `${baseURL}/p/${id}`;
    app.useClient({ issuer: issuerUrl, clientId: keys.clientId, clientSecret: keys.clientSecret });

    const disabledRedirect = 'https://disabled.northwind.example/callback';
    const other = await callApiOk(page, api.createApp, {
      body: { platformCode: 'oidc', name: 'Old portal', url: 'https://disabled.northwind.example', projectId: id },
    });
    const disabled = await callApiOk(page, api.createAppKeys, { params: { application: other.id }, body: { redirectURI: [disabledRedirect] } });
    await callApiOk(page, api.updateApp, { params: { application: other.id }, body: { name: 'Old portal', logoUrl: '', enabled: false } });
    const auth = new URL(`${issuerUrl}/auth`);
    auth.search = new URLSearchParams({
      client_id: disabled.clientId,
      redirect_uri: disabledRedirect,
      response_type: 'code',
      scope: 'openid',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    }).toString();
    return auth.href;
  });

  for (const [language, colorScheme] of WALKS) {
    const reads = READS[language];
    await test.step(`${language}, ${colorScheme}: page 1, the code page, the passkey offer and a refusal`, async () => {
      const context = await browser.newContext({ locale: reads.locale });
      const user = await context.newPage();
      await user.emulateMedia({ colorScheme });
      const email = newEmail(`hosted-${language}-${colorScheme}`);

      await user.goto(app.url);
      await expectHeading(user, reads.signIn);
      await expectPageLanguage(user, language);
      await expectLogo(user, DISPLAY_NAME);
      await expectLinkTo(user, 'support@northwind.example', 'mailto:support@northwind.example');
      // The logo really loaded (the CSP let exactly its origin through).
      await expectLogoLoaded(user, DISPLAY_NAME);
      await expectAccessibleIn(user, language, `page 1 (${language}, ${colorScheme})`);
      await saveHostedShot(user, `page1-${language}-${colorScheme}`);

      await fillIdentityAndContinueIn(user, email, reads);
      await expectCodeField(user, reads.code);
      await expectAccessibleIn(user, language, `code page (${language}, ${colorScheme})`);

      await fillCodeAndSubmitIn(user, await readCode(email, 0), reads);
      await expectHeading(user, reads.offer);
      await expectNote(user, reads.warning);
      await expectAccessibleIn(user, language, `passkey offer (${language}, ${colorScheme})`);
      await saveHostedShot(user, `offer-${language}-${colorScheme}`);

      const refused = await user.goto(disabledAuthUrl);
      expect(refused?.status()).toBe(403);
      await expectHeading(user, reads.refused);
      await expectAccessibleIn(user, language, `refusal page (${language}, ${colorScheme})`);
      await saveHostedShot(user, `refusal-${language}-${colorScheme}`);
      await context.close();
    });
  }
});
