import { beforeAll, describe, expect, it } from 'vitest';
import { api, type Project } from '@latchkey/domain';
import { pageLanguage, type PageLanguage } from '../src/oidc/pages/texts.ts';
import { signedInAccount, uniqueEmail, useTestApp, type SignedIn } from './support/app.ts';
import { createPasskey, pageOptions, type CreationOptions } from './support/authenticator.ts';
import { Browser, type BrowserResponse } from './support/browser.ts';
import { describeWithDatabase } from './support/databases.ts';
import { apiPath, closeProject, getProject, REDIRECT } from './support/fixtures.ts';
import { authorizationRequest, projectWithRelyingParty, untilApp, type RelyingParty } from './support/relying-party.ts';
import { formAction, isPasskeyOffer } from './support/sign-in.ts';

// docs/decisions/0015: the hosted page speaks the browser's language when it is en, fr or ro, else
// the project's midentityLanguage; it wears the project's brand (spec §3).
describe('the language of a hosted page', () => {
  it.each<[string | undefined, PageLanguage, PageLanguage]>([
    ['fr-CA,fr;q=0.9,en;q=0.8', 'en', 'fr'],
    ['en-US,en;q=0.9', 'ro', 'en'],
    ['de-DE,de;q=0.9', 'ro', 'ro'],
    [undefined, 'ro', 'ro'],
    ['', 'fr', 'fr'],
    ['*', 'fr', 'fr'],
    ['de-DE, ro;q=0.5, fr;q=0.4', 'en', 'ro'],
    ['fr;q=0.5, ro', 'en', 'ro'],
    ['ro;q=0, en;q=0', 'fr', 'fr'],
    ['RO-ro', 'en', 'ro'],
    ['fr;q=abc, ro;q=0.2', 'en', 'ro'],
    ['french, fr-x', 'ro', 'fr'],
  ])('Accept-Language %j with project language %s: %s', (header, project, expected) => {
    expect(pageLanguage(header, project)).toBe(expected);
  });
});

/** A browser whose every request says which languages its user reads (Accept-Language). */
class ReadingBrowser extends Browser {
  readonly languages: string | null;
  constructor(languages: string | null) {
    super();
    this.languages = languages;
  }
  override request(url: string, init: Parameters<Browser['request']>[1] = {}): Promise<BrowserResponse> {
    if (this.languages === null) return super.request(url, init);
    return super.request(url, { ...init, headers: { 'accept-language': this.languages, ...init.headers } });
  }
}

const htmlLang = (page: BrowserResponse) => /<html lang="([^"]+)">/.exec(page.text)?.[1];
const heading = (page: BrowserResponse) => /<h1>([^<]*)<\/h1>/.exec(page.text)?.[1];
const imgSrc = (page: BrowserResponse) => /img-src ([^;]*)/.exec(page.headers.get('content-security-policy') ?? '')?.[1];

describeWithDatabase('the hosted sign-in page', (d) => {
  const t = useTestApp(d, { listen: true, env: { PROJECTS_PER_ACCOUNT: '100' } });
  let admin: SignedIn;
  beforeAll(async () => {
    admin = await signedInAccount(t, d.db);
  });

  /** A project with a relying party, its settings changed through the API as the console does. */
  async function project(settings: Partial<Project> = {}): Promise<RelyingParty & { name: string }> {
    const p = await projectWithRelyingParty(t, admin);
    const current = await getProject(admin, p.projectId);
    const res = await admin.api.put(apiPath(api.updateProject, { project: p.projectId }), { ...current, ...settings });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { ...p, name: settings.displayName || current.name };
  }

  async function page1(browser: Browser, p: RelyingParty): Promise<BrowserResponse> {
    const page = await untilApp(browser, await browser.get((await authorizationRequest(p)).url.href));
    expect(page.status, page.text).toBe(200);
    return page;
  }

  async function codePageFor(browser: Browser, p: RelyingParty, email: string): Promise<BrowserResponse> {
    return untilApp(browser, await browser.request(formAction(await page1(browser, p)), { form: { email } }));
  }

  async function offerFor(browser: Browser, p: RelyingParty, email: string): Promise<BrowserResponse> {
    const codePage = await codePageFor(browser, p, email);
    const offer = await untilApp(browser, await browser.request(formAction(codePage), { form: { code: t.mailer.lastCode(email) } }));
    expect(offer.status, offer.text).toBe(200);
    return offer;
  }

  const lastMail = (email: string) => t.mailer.sent.filter((m) => m.email === email).at(-1);

  it('speaks French to a browser that asks for it: page 1, its error, the code page, the code mail and the passkey offer', async () => {
    const p = await project();
    const browser = new ReadingBrowser('fr-CA,fr;q=0.9,en;q=0.8');
    const first = await page1(browser, p);
    expect(htmlLang(first)).toBe('fr');
    expect(heading(first)).toBe(`Se connecter à ${p.name}`);
    expect(first.text).toContain('<label for="email">Adresse e-mail</label>');
    expect(first.text).toMatch(/<button[^>]*>Continuer<\/button>/);

    const invalid = await browser.request(formAction(first), { form: { email: 'not an address' } });
    expect(invalid.status).toBe(400);
    expect(invalid.text).toContain('Saisissez une adresse e-mail valide');

    const email = uniqueEmail('fr');
    const codePage = await codePageFor(browser, p, email);
    expect(htmlLang(codePage)).toBe('fr');
    expect(codePage.text).toContain(`Nous avons envoyé un code à 6 chiffres à <strong>${email}</strong>`);
    const code = t.mailer.lastCode(email);
    expect(lastMail(email)?.message).toEqual({
      language: 'fr',
      subject: `Votre code de connexion à ${p.name}\u202f: ${code}`,
      text: `Votre code de connexion est ${code}.\n\nIl expire dans 10 minutes et ne fonctionne qu’une fois. Si vous n’avez pas essayé de vous connecter à ${p.name}, ignorez ce message.\n`,
    });

    const wrong = await browser.request(formAction(codePage), { form: { code: code === '000000' ? '111111' : '000000' } });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('Ce code n’est pas correct');

    const offer = await untilApp(browser, await browser.request(formAction(codePage), { form: { code } }));
    expect(offer.status, offer.text).toBe(200);
    expect(heading(offer)).toBe('Créer une clé d’accès');
    // What the page script says if the browser's passkey dialog fails, in French too.
    expect(offer.text).toContain('data-failed="Aucune clé d’accès n’a été créée. Réessayez ou choisissez «\u202fPas maintenant\u202f»."');
  });

  it("follows the browser over the project's language, and the project's language when the browser asks for none of en, fr, ro", async () => {
    const p = await project({ midentityLanguage: 'ro' });

    const english = new ReadingBrowser('en-US,en;q=0.9');
    expect(htmlLang(await page1(english, p))).toBe('en');
    const enEmail = uniqueEmail('en');
    expect(heading(await codePageFor(english, p, enEmail))).toBe(`Sign in to ${p.name}`);
    expect(lastMail(enEmail)?.message?.subject).toBe(`Your ${p.name} sign-in code: ${t.mailer.lastCode(enEmail)}`);

    for (const languages of ['de-DE,de;q=0.9', null]) {
      const browser = new ReadingBrowser(languages);
      const first = await page1(browser, p);
      expect(htmlLang(first)).toBe('ro');
      expect(heading(first)).toBe(`Conectați-vă la ${p.name}`);
      expect(first.text).toMatch(/<button[^>]*>Continuați<\/button>/);
      const email = uniqueEmail('ro');
      const codePage = await codePageFor(browser, p, email);
      expect(codePage.text).toContain(`Am trimis un cod din 6 cifre la <strong>${email}</strong>`);
      expect(lastMail(email)?.message).toMatchObject({
        language: 'ro',
        subject: `Codul dumneavoastră de conectare la ${p.name}: ${t.mailer.lastCode(email)}`,
      });
    }
  });

  /** Page 1 of an authorization request carrying `extra` parameters (ui_locales, login_hint). */
  async function page1With(browser: Browser, p: RelyingParty, extra: Record<string, string>): Promise<BrowserResponse> {
    const { url } = await authorizationRequest(p);
    for (const [name, value] of Object.entries(extra)) url.searchParams.set(name, value);
    const page = await untilApp(browser, await browser.get(url.href));
    expect(page.status, page.text).toBe(200);
    return page;
  }

  it("lets the request's ui_locales choose the language before the browser's, and login_hint fill in the identity (OpenID Connect Core §3.1.2.1)", async () => {
    const p = await project({ midentityLanguage: 'en' });
    const french = new ReadingBrowser('fr-FR,fr;q=0.9');
    const romanian = await page1With(french, p, { ui_locales: 'ro-RO en' });
    expect(htmlLang(romanian)).toBe('ro');
    const email = uniqueEmail('ui-locales');
    // The code mail follows the pages' language too.
    await untilApp(french, await french.request(formAction(romanian), { form: { email } }));
    expect(lastMail(email)?.message?.language).toBe('ro');
    // No language of ui_locales is spoken here: the browser's is.
    expect(htmlLang(await page1With(new ReadingBrowser('fr-FR,fr;q=0.9'), p, { ui_locales: 'de ja' }))).toBe('fr');

    expect(p.config.serverMetadata().ui_locales_supported).toEqual(['en', 'fr', 'ro']);

    const hinted = await page1With(new ReadingBrowser(null), p, { login_hint: 'Ada@Example.com' });
    expect(hinted.text).toMatch(/<input id="email"[^>]* value="Ada@Example.com"/);
    const escaped = await page1With(new ReadingBrowser(null), p, { login_hint: '"><script>x</script>' });
    expect(escaped.text).not.toContain('<script>x');
  });

  it("a returning user's passkey page, a closed project's refusal and the provider's error page speak the chosen language too", async () => {
    const p = await project({ midentityLanguage: 'fr' });
    const email = uniqueEmail('returning');
    const browser = new ReadingBrowser(null);
    const offer = await offerFor(browser, p, email);
    const { response } = createPasskey(pageOptions<CreationOptions>(offer.text), t.baseUrl);
    const back = await untilApp(browser, await browser.request(formAction(offer), { form: { response: JSON.stringify(response) } }));
    expect(back.location ?? '').toMatch(new RegExp(`^${REDIRECT}\\?`));

    const romanian = new ReadingBrowser('ro-RO');
    const passkeyPage = await untilApp(romanian, await romanian.request(formAction(await page1(romanian, p)), { form: { email } }));
    expect(htmlLang(passkeyPage)).toBe('ro');
    expect(passkeyPage.text).toMatch(/<button class="[a-z ]+" type="submit">Conectați-vă cu o cheie de acces<\/button>/);
    expect(passkeyPage.text).toContain(`Folosiți cheia de acces pentru <strong>${email}</strong>.`);
    expect(passkeyPage.text).toContain('>Trimiteți-mi în schimb un cod prin e-mail</button>');

    const unregistered = await authorizationRequest(p);
    unregistered.url.searchParams.set('redirect_uri', `${REDIRECT}/other`);
    const invalid = await new ReadingBrowser(null).get(unregistered.url.href);
    expect(invalid.status).toBe(400);
    expect(htmlLang(invalid)).toBe('fr');
    expect(heading(invalid)).toBe('Cette demande de connexion n’est pas valide');
    expect(invalid.text).toContain('INVALID_REQUEST_PARAMETERS: redirect_uri');

    await closeProject(admin, p.projectId);
    const closed = await romanian.get((await authorizationRequest(p)).url.href);
    expect(closed.status).toBe(403);
    expect(htmlLang(closed)).toBe('ro');
    expect(heading(closed)).toBe('Acest proiect este închis');
  });

  it("wears the project's brand: logo (its origin alone added to img-src), display name, help, support email and phone, all escaped", async () => {
    const p = await project({
      displayName: 'Acme <b>& "Co"</b>',
      logoUrl: 'https://cdn.acme.example/brand/logo.svg?v=1&size="2"',
      helpUrl: 'https://help.acme.example/sign-in?from=page&x="y"',
      supportEmail: 'help&desk@acme.example',
      supportPhone: '+40211234567',
    });
    const first = await page1(new ReadingBrowser(null), p);
    const name = 'Acme &lt;b&gt;&amp; &quot;Co&quot;&lt;/b&gt;';
    expect(first.text).toContain(`<title>Sign in · ${name}</title>`);
    expect(heading(first)).toBe(`Sign in to ${name}`);
    expect(first.text).toContain(
      `<img class="logo" src="https://cdn.acme.example/brand/logo.svg?v=1&amp;size=%222%22" alt="${name}" referrerpolicy="no-referrer">`,
    );
    expect(imgSrc(first)).toBe("'self' data: https://cdn.acme.example");
    expect(first.text).toContain('<a href="https://help.acme.example/sign-in?from=page&amp;x=&quot;y&quot;">Help</a>');
    expect(first.text).toContain('<a href="mailto:help%26desk@acme.example">help&amp;desk@acme.example</a>');
    expect(first.text).toContain('<a href="tel:+40211234567">+40211234567</a>');
    expect(first.text).not.toContain('<b>');

    // The refusal page wears it too, with the same CSP.
    await closeProject(admin, p.projectId);
    const closed = await new ReadingBrowser(null).get((await authorizationRequest(p)).url.href);
    expect(closed.status).toBe(403);
    expect(closed.text).toContain('<img class="logo" src="https://cdn.acme.example/');
    expect(imgSrc(closed)).toBe("'self' data: https://cdn.acme.example");
  });

  it('shows no logo, footer or extra image source without branding, nor a logo whose address a CSP source cannot name exactly', async () => {
    const plain = await page1(new ReadingBrowser(null), await project());
    expect(plain.text).not.toContain('<img');
    expect(plain.text).not.toContain('<footer');
    expect(imgSrc(plain)).toBe("'self' data:");

    // The URL parser keeps ';' in a host name: named in the CSP it would end img-src and start another directive.
    for (const logoUrl of ['https://cdn;script-src.example/logo.png', 'https://user:secret@cdn.acme.example/logo.png']) {
      const page = await page1(new ReadingBrowser(null), await project({ logoUrl }));
      expect(page.text, logoUrl).not.toContain('<img');
      expect(imgSrc(page), logoUrl).toBe("'self' data:");
      expect(page.headers.get('content-security-policy')).not.toContain('cdn');
    }
  });

  it('warns about clearing browser data on the passkey offer only when the project enables it, in the page language', async () => {
    const warned = await project({ enableBrowserWarning: true });
    const browser = new ReadingBrowser('en');
    expect((await page1(browser, warned)).text).not.toContain('class="notice"');
    const offer = await offerFor(browser, warned, uniqueEmail('warned'));
    expect(isPasskeyOffer(offer)).toBe(true);
    expect(offer.text).toContain('<div class="notice" role="note"><p><strong>Before you clear your browser data</strong></p>');
    expect(offer.text).toContain('clearing its data or removing its profile deletes the passkey');

    const french = new ReadingBrowser('fr');
    const frOffer = await offerFor(french, warned, uniqueEmail('warned-fr'));
    expect(frOffer.text).toContain('<strong>Avant d’effacer les données de votre navigateur</strong>');

    const quiet = await project({ enableBrowserWarning: false });
    const quietOffer = await offerFor(new ReadingBrowser('en'), quiet, uniqueEmail('quiet'));
    expect(isPasskeyOffer(quietOffer)).toBe(true);
    expect(quietOffer.text).not.toContain('class="notice"');
    expect(quietOffer.text).not.toContain('browser data');
  });
});
