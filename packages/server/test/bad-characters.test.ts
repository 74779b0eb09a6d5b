import { expect, it } from 'vitest';
import { api } from '@latchkey/domain';
import { anonymous, signedInAccount, useTestApp } from './support/app.ts';
import { Browser } from './support/browser.ts';
import { describeWithDatabase } from './support/databases.ts';
import { apiPath, createProject, databaseFingerprint, getProject } from './support/fixtures.ts';
import { emailAction, openSignIn, submitEmail } from './support/sign-in.ts';

interface ErrorAnswer {
  error: string;
  message: string;
  issues?: Array<{ field: string; code: string; message: string }>;
}

const INVALID_CHARACTERS = 'Contains characters that are not allowed (control characters or broken Unicode)';

/**
 * Issue 7, defect 4: the inputs a security probe answered with 500 (or stored mangled) are each a
 * 400 with a clear message that names the field, and change nothing. The fuzz test covers the
 * rest; these are the cases the probe reported, one by one.
 */
describeWithDatabase('NUL bytes and lone surrogates', (t) => {
  const app = useTestApp(t, { listen: true });

  it.each([
    ['GET /api/authurl?state_next=/%00', `/api/authurl?redirectURL=${encodeURIComponent('http://x/login')}&state_next=/%00`, 'query.state_next'],
    ['GET /api/apps/%00', '/api/apps/%00', 'path'],
    ['a lone surrogate in a path (CESU-8 %ED%A0%80)', '/api/projects/%ED%A0%80', 'path'],
    ['a tab in state_next (/\\t/evil.example)', `/api/authurl?redirectURL=x&state_next=/%09/evil.example`, 'query.state_next'],
  ])('answers %s with 400 naming where the bad character is', async (_label, url, field) => {
    const me = await signedInAccount(app, t.db, ['glb::*']);
    const before = await databaseFingerprint(t.db);
    const res = await me.api.get<ErrorAnswer>(url);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'validation_failed',
      message: 'Invalid request',
      issues: [{ field, code: 'validation.invalid_characters', message: INVALID_CHARACTERS }],
    });
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });

  it.each([
    ['a NUL', 'Acme\u0000'],
    ['a lone high surrogate', 'Acme \ud800'],
    ['a lone low surrogate', '\udc00 Acme'],
    ['an escape character', 'Acme\u001b[31m'],
  ])('refuses a project name with %s (400, field name) instead of a 500 or a U+FFFD stored silently', async (_label, name) => {
    const me = await signedInAccount(app, t.db, ['glb::*']);
    const id = await createProject(me, 'Clean');
    const before = await databaseFingerprint(t.db);
    const created = await me.api.post<ErrorAnswer>(apiPath(api.createProject), { name, pinLength: 4, email: me.account.email });
    expect(created.status).toBe(400);
    expect(created.body.issues).toEqual([{ field: 'name', code: 'validation.invalid_characters', message: INVALID_CHARACTERS }]);
    const project = await getProject(me, id);
    const updated = await me.api.put<ErrorAnswer>(apiPath(api.updateProject, { project: id }), { ...project, displayName: name });
    expect(updated.status).toBe(400);
    expect(updated.body.issues?.map((i) => i.field)).toEqual(['displayName']);
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });

  it('refuses a JSON body whose bytes are not UTF-8 (400) instead of storing U+FFFD', async () => {
    const me = await signedInAccount(app, t.db, ['glb::*']);
    const before = await databaseFingerprint(t.db);
    const payload = Buffer.concat([Buffer.from('{"name":"Acme '), Buffer.from([0xed, 0xa0, 0x80, 0xff]), Buffer.from('","pinLength":4}')]);
    const res = await me.api.call<ErrorAnswer>('POST', apiPath(api.createProject), payload, { headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([{ field: 'body', code: 'validation.invalid_characters', message: INVALID_CHARACTERS }]);
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });

  it('keeps a well-formed surrogate pair (an emoji) exactly as sent', async () => {
    const me = await signedInAccount(app, t.db, ['glb::*']);
    const id = await createProject(me, 'Rocket 🚀');
    expect((await getProject(me, id)).name).toBe('Rocket 🚀');
  });

  it('answers the login call with a NUL in its state with 400, not 500', async () => {
    const res = await anonymous(app).post<ErrorAnswer>(apiPath(api.login), { code: 'abc', redirectURL: `${app.baseUrl}/login`, state: '\u0000' });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([{ field: 'state', code: 'validation.invalid_characters', message: INVALID_CHARACTERS }]);
  });

  it("answers the provider's email field with %00 by showing the page again with an error (400), sending no code", async () => {
    const browser = new Browser();
    const emailPage = await openSignIn(app, browser);
    const sent = app.mailer.sent.length;
    const before = await databaseFingerprint(t.db);
    for (const email of ['me\u0000@example.com', 'me@example.com\u0000', 'me\u0007@example.com']) {
      const page = await submitEmail(browser, emailPage, email);
      expect(page.status).toBe(400);
      expect(page.text).toContain('Enter a valid email address');
    }
    // A lone surrogate cannot be form-encoded by a browser (it sends U+FFFD); sent raw as CESU-8,
    // or as broken percent-encoding, the form itself is refused rather than read as U+FFFD.
    for (const raw of ['email=me%ED%A0%80%40example.com', 'email=me%FF%40example.com', 'email=%zz']) {
      const page = await browser.request(emailAction(emailPage), { urlencoded: raw });
      expect(page.status).toBe(400);
    }
    expect(app.mailer.sent.length).toBe(sent);
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });
});
