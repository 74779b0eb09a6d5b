import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser } from './support/browser.ts';
import { describeEachDatabase } from './support/databases.ts';
import { startTestApp, type TestApp } from './support/app.ts';
import { openSignIn, postLogin, signInThroughProvider, submitCode, submitEmail, formAction, linkHref } from './support/sign-in.ts';
import { MINUTE } from './support/fakes.ts';

describeEachDatabase('sign-in through the built-in provider', (t) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(t.db, { listen: true });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('signs in over HTTP: authurl, provider pages, emailed code, back to /login, POST /api/login, GET /api/account', async () => {
    const browser = new Browser();
    const emailPage = await openSignIn(app, browser, '/project/abc/settings');
    expect(emailPage.status).toBe(200);
    expect(emailPage.url).toMatch(new RegExp(`^${app.baseUrl}/idp/interaction/`));
    expect(emailPage.text).toContain('<h1>Sign in to Latchkey</h1>');
    expect(emailPage.text).toContain('<label for="email">Email</label>');
    expect(emailPage.text).toMatch(/<button[^>]*>Continue<\/button>/);
    expect(emailPage.text).toMatch(/<a href="[^"]+\/cancel">Cancel<\/a>/);

    const email = 'First.Owner@Example.test';
    const codePage = await submitEmail(browser, emailPage, email);
    expect(codePage.status).toBe(200);
    expect(codePage.text).toContain('We sent a 6-digit code to <strong>first.owner@example.test</strong>');
    expect(codePage.text).toContain('<label for="code">Code</label>');
    expect(codePage.text).toMatch(/<button[^>]*>Sign in<\/button>/);
    const code = app.mailer.lastCode('first.owner@example.test');
    expect(code).toMatch(/^\d{6}$/);

    const back = await submitCode(app, browser, codePage, code);
    expect(back.location).toMatch(new RegExp(`^${app.baseUrl}/login\\?code=`));

    const login = await postLogin(app, browser, back.location as string);
    expect(login.status, login.text).toBe(200);
    expect(login.json()).toEqual({ next: '/project/abc/settings' });
    expect(browser.cookie('lk_session')).toBeTruthy();
    expect(browser.cookie('XSRF-TOKEN')).toBeTruthy();

    const account = await browser.get(`${app.baseUrl}/api/account`);
    expect(account.status).toBe(200);
    expect(account.json()).toMatchObject({ email: 'first.owner@example.test', permissions: ['glb::*'] });
  });
});
