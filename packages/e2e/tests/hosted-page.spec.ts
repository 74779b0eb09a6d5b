import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { api } from '@latchkey/domain';
import type { Page } from '@playwright/test';
import { callApiOk, createAppWithKeysThroughApi, createProjectThroughApi } from '../support/call-api.ts';
import { expect, test } from '../support/fixtures.ts';
import { startRelyingParty, type RelyingParty } from '../support/relying-party.ts';
import { freePort } from '../support/start-server.ts';
import { newEmail, readCode, signIn } from '../support/sign-in.ts';

// Issue 8 "Passwordless sign-in": a project's hosted page is its own — brand, language en/fr/ro,
// the browser-data warning — and passes axe (WCAG 2.2 AA) in light and dark, in every language
// (docs/decisions/0015). HOSTED_PAGE_SHOTS=<dir> also saves screenshots of page 1 and the passkey offer.

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
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

async function expectNoAxeViolations(page: Page, where: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_22_AA).analyze();
  const found = results.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(found, where).toEqual([]);
}

async function saveShot(page: Page, name: string): Promise<void> {
  const dir = process.env.HOSTED_PAGE_SHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}

test('the hosted page wears the project brand and passes axe (WCAG 2.2 AA) in en, fr and ro, light and dark', async ({ page, browser, baseURL }) => {
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

  for (const language of ['en', 'fr', 'ro'] as const) {
    for (const colorScheme of ['light', 'dark'] as const) {
      const reads = READS[language];
      await test.step(`${language}, ${colorScheme}: page 1, the code page, the passkey offer and a refusal`, async () => {
        const context = await browser.newContext({ locale: reads.locale });
        const user = await context.newPage();
        await user.emulateMedia({ colorScheme });
        const email = newEmail(`hosted-${language}-${colorScheme}`);

        await user.goto(app.url);
        await expect(user.getByRole('heading', { name: reads.signIn })).toBeVisible();
        await expect(user.locator('html')).toHaveAttribute('lang', language);
        await expect(user.getByRole('img', { name: DISPLAY_NAME })).toBeVisible();
        await expect(user.getByRole('link', { name: 'support@northwind.example' })).toHaveAttribute('href', 'mailto:support@northwind.example');
        // The logo really loaded (the CSP let exactly its origin through).
        expect(await user.getByRole('img', { name: DISPLAY_NAME }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
        await expectNoAxeViolations(user, `page 1 (${language}, ${colorScheme})`);
        await saveShot(user, `page1-${language}-${colorScheme}`);

        await user.getByLabel(reads.field).fill(email);
        await user.getByRole('button', { name: reads.continue }).click();
        await expect(user.getByLabel(reads.code)).toBeVisible();
        await expectNoAxeViolations(user, `code page (${language}, ${colorScheme})`);

        await user.getByLabel(reads.code).fill(await readCode(email, 0));
        await user.getByRole('button', { name: reads.submitCode, exact: true }).click();
        await expect(user.getByRole('heading', { name: reads.offer })).toBeVisible();
        await expect(user.getByRole('note')).toContainText(reads.warning);
        await expectNoAxeViolations(user, `passkey offer (${language}, ${colorScheme})`);
        await saveShot(user, `offer-${language}-${colorScheme}`);

        const refused = await user.goto(disabledAuthUrl);
        expect(refused?.status()).toBe(403);
        await expect(user.getByRole('heading', { name: reads.refused })).toBeVisible();
        await expectNoAxeViolations(user, `refusal page (${language}, ${colorScheme})`);
        await saveShot(user, `refusal-${language}-${colorScheme}`);
        await context.close();
      });
    }
  }
});
