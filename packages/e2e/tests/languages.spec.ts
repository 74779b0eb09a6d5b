import AxeBuilder from '@axe-core/playwright';
import { api } from '@latchkey/domain';
import type { Page } from '@playwright/test';
import { callApiOk, createAppWithKeysThroughApi, createProjectThroughApi } from '../support/call-api.ts';
import { catalogueKeys, englishOnlyPhrases, type Translated } from '../support/catalogues.ts';
import { expect, test } from '../support/fixtures.ts';
import { saveShots } from '../support/shots.ts';
import { fillSignInForm, newEmail, signIn } from '../support/sign-in.ts';

// issue 13: the console in English, French and Romanian. An admin switches the language in the top
// bar and walks every page of a project: no English left, no catalogue key shown, the page's
// language declared, and axe (WCAG 2.2 AA) finds nothing in light or dark.

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

const READS = {
  en: { name: 'English', projects: 'Projects' },
  fr: { name: 'Français', projects: 'Projets' },
  ro: { name: 'Română', projects: 'Proiecte' },
} as const;

/** The top bar's language menu: named "Language: <the language now>" whatever it is. */
async function chooseLanguage(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: /: (English|Français|Română)$/ }).click();
  await page.getByRole('menuitem', { name }).click();
  await expect(page.getByRole('button', { name: new RegExp(`: ${name}$`) })).toBeVisible();
}

/** The page has its title and has finished asking the server (lists, charts and forms filled in). */
async function expectPageSettled(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.mantine-Loader-root, .mantine-Skeleton-root[data-visible="true"]')).toHaveCount(0);
}

/** What the page shows is in `language`: no English run of the catalogues, no key, the right lang. */
async function expectSpeaks(page: Page, language: Translated | 'en', where: string): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('lang', language);
  const text = await page.locator('body').innerText();
  if (language !== 'en') {
    const english = englishOnlyPhrases(language).filter((phrase) => text.includes(phrase));
    expect(english, `English left on ${where} (${language})`).toEqual([]);
  }
  const keys = catalogueKeys().filter((key) => new RegExp(`(^|\\s)${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`).test(text));
  expect(keys, `catalogue keys shown on ${where} (${language})`).toEqual([]);
}

async function expectNoAxeViolations(page: Page, where: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    const results = await new AxeBuilder({ page }).withTags(WCAG_22_AA).analyze();
    const found = results.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(found, `${where}, ${colorScheme}`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: null, reducedMotion: null });
}

/** A signed-in admin with a project holding an application, and the paths of every page to walk. */
async function adminWithAProject(page: Page, label: string) {
  const email = newEmail(label);
  await signIn(page, email);
  const projectId = await createProjectThroughApi(page, `Polyglot ${Date.now().toString(36)}`);
  const keys = await createAppWithKeysThroughApi(page, projectId, ['https://app.example.com/callback']);
  const me = await callApiOk(page, api.getAccount);
  const pages: Array<[string, string]> = [
    ['projects', '/'],
    ['project-create', '/project/create'],
    ['dashboard', `/project/${projectId}/dashboard`],
    ['apps', `/project/${projectId}/apps`],
    ['app-create', `/project/${projectId}/app/create`],
    ['app-settings', `/project/${projectId}/app/${keys.id}/settings`],
    ['devices', `/project/${projectId}/devices`],
    ['audit', `/project/${projectId}/audit`],
    ['settings', `/project/${projectId}/settings`],
    ['branding', `/project/${projectId}/branding`],
    ['user-verification', `/project/${projectId}/userverification`],
    ['oidc', `/project/${projectId}/oidc`],
    ['mobile-apps', `/project/${projectId}/mobileapps`],
    ['accounts', `/project/${projectId}/accounts`],
    ['account-create', `/project/${projectId}/account/create`],
    ['service-account-create', `/project/${projectId}/serviceaccount/create`],
    ['account-settings', `/project/${projectId}/account/${me.id}/settings`],
    ['welcome', `/project/${projectId}/welcome`],
    ['forbidden', '/usage'],
    ['not-found', '/no/such/page'],
  ];
  return { email, pages };
}

for (const language of ['en', 'fr', 'ro'] as const) {
  test(`an admin works in ${READS[language].name}: every page translated, no key shown, axe clean in light and dark`, async ({ page }) => {
    test.setTimeout(300_000);
    const { pages } = await adminWithAProject(page, `polyglot-${language}`);
    await page.goto('/');
    await chooseLanguage(page, READS[language].name);
    await expect(page.getByRole('heading', { level: 1, name: READS[language].projects })).toBeVisible();
    for (const [name, path] of pages) {
      await test.step(name, async () => {
        await page.goto(path);
        await expectPageSettled(page);
        await expectSpeaks(page, language, name);
        await expectNoAxeViolations(page, `${name} (${language})`);
        await saveShots(page, `${language}-${name}`);
      });
    }
  });
}

test('the language chosen holds after a reload and in another browser of the same account', async ({ page, browser, baseURL }) => {
  const email = newEmail('polyglot');
  await signIn(page, email);
  await chooseLanguage(page, READS.ro.name);
  await expect(page.getByRole('heading', { level: 1, name: READS.ro.projects })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: READS.ro.projects })).toBeVisible();

  const context = await browser.newContext({ baseURL });
  const elsewhere = await context.newPage();
  await elsewhere.goto('/');
  await fillSignInForm(elsewhere, email);
  await expect(elsewhere.getByRole('heading', { level: 1, name: READS.ro.projects })).toBeVisible();
  await expect(elsewhere.locator('html')).toHaveAttribute('lang', 'ro');
  await context.close();

  await chooseLanguage(page, 'English');
  await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
});

test('someone not signed in is spoken to in their browser’s language', async ({ browser, baseURL }) => {
  for (const [locale, tryAgain] of [
    ['fr-CA', 'Réessayer'],
    ['ro-RO', 'Încercați din nou'],
    ['de-DE', 'Try again'],
  ] as const) {
    const context = await browser.newContext({ baseURL, locale });
    const visitor = await context.newPage();
    await visitor.goto('/login/error?error=auth_error');
    await expect(visitor.getByRole('link', { name: tryAgain }).or(visitor.getByRole('button', { name: tryAgain }))).toBeVisible();
    await context.close();
  }
});
