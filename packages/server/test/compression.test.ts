import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedEncoding, compressedFor } from '../src/http/compression.ts';
import { PASSKEY_SCRIPT_PATH, WEBAUTHN_LIBRARY_PATH } from '../src/oidc/pages/passkey-views.ts';
import { STYLESHEET_PATH } from '../src/oidc/pages/views.ts';
import * as client from 'openid-client';
import { signedInAccount, uniqueEmail, useTestApp } from './support/app.ts';
import { Browser } from './support/browser.ts';
import { describeWithDatabase } from './support/databases.ts';
import { logoutForm, projectWithRelyingParty, signInForTokens } from './support/relying-party.ts';
import { openSignIn } from './support/sign-in.ts';

// Issue 38: what a browser downloads goes compressed, by its Accept-Encoding, with Vary.
const CHROME = 'gzip, deflate, br, zstd';
const PRECOMPRESS = resolve(import.meta.dirname, '../../console/scripts/precompress.mjs');

function decoded(encoding: unknown, body: Buffer): string {
  if (encoding === 'br') return brotliDecompressSync(body).toString();
  if (encoding === 'gzip') return gunzipSync(body).toString();
  return body.toString();
}

describe('the encoding a request accepts', () => {
  it.each([
    [CHROME, 'br'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['*', 'br'],
    ['identity', null],
    ['gzip;q=0', null],
    [undefined, null],
  ])('%s → %s', (header, encoding) => {
    expect(acceptedEncoding(header)).toBe(encoding);
  });
});

describe('compressing a body on the fly', () => {
  // A page of a few kilobytes is compressed on the event loop, a large body in the thread pool,
  // each with a window its size (issue 38): both read back whole, in both encodings.
  it.each([
    ['a page', 2_000],
    ['a large body', 200_000],
  ])('%s (%i bytes) in brotli and gzip', async (_, size) => {
    const words = Array.from({ length: size / 8 }, (_v, i) => `w${(i * 7919) % 1000}`.padEnd(8, ' ')).join('');
    for (const encoding of ['br', 'gzip'] as const) {
      const compressed = await compressedFor(encoding, Buffer.from(words));
      expect(compressed?.encoding).toBe(encoding);
      expect((compressed as { body: Buffer }).body.length).toBeLessThan(words.length / 2);
      expect(decoded(encoding, (compressed as { body: Buffer }).body)).toBe(words);
    }
  });
});

describeWithDatabase('compressed delivery', (d) => {
  const dist = mkdtempSync(join(tmpdir(), 'latchkey-dist-'));
  const html = `<!doctype html><title>Latchkey console</title><script type="module" src="/assets/index-abc.js"></script>${'<!-- the shell -->'.repeat(80)}`;
  const script = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{ id: ${i}, name: 'row ${i}' }`).join(', ')}];\n`;
  beforeAll(() => {
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), html);
    writeFileSync(join(dist, 'assets', 'index-abc.js'), script);
    writeFileSync(join(dist, 'assets', 'tiny-abc.js'), 'export{}');
    // The console's own build step, on this folder.
    const run = spawnSync(process.execPath, [PRECOMPRESS, dist], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
  });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));
  const t = useTestApp(d, { listen: true, consoleDist: dist });

  it('builds a brotli and a gzip copy of each file, none where it would not be smaller', () => {
    expect(decoded('br', readFileSync(join(dist, 'assets', 'index-abc.js.br')))).toBe(script);
    expect(decoded('gzip', readFileSync(join(dist, 'index.html.gz')))).toBe(html);
    expect(() => readFileSync(join(dist, 'assets', 'tiny-abc.js.br'))).toThrow(/ENOENT/);
  });

  it('sends the console’s files and its pages as the build compressed them, by Accept-Encoding, with Vary', async () => {
    for (const [url, body, caching] of [
      ['/assets/index-abc.js', script, 'public, max-age=31536000, immutable'],
      ['/', html, 'no-cache'],
      ['/project/abc/settings', html, 'no-cache'],
    ] as const) {
      for (const [accepts, encoding] of [
        [CHROME, 'br'],
        ['gzip, deflate', 'gzip'],
        ['identity', undefined],
      ] as const) {
        const res = await t.app.inject({ url, headers: { 'accept-encoding': accepts } });
        const at = `${url} ${accepts}`;
        expect(res.statusCode, at).toBe(200);
        expect(res.headers['content-encoding'], at).toBe(encoding);
        expect(String(res.headers.vary).toLowerCase(), at).toContain('accept-encoding');
        expect(res.headers['cache-control'], at).toBe(caching);
        expect(decoded(encoding, res.rawPayload), at).toBe(body);
        if (encoding) expect(res.rawPayload.length, at).toBeLessThan(Buffer.byteLength(body) / 2);
      }
    }
    expect(String((await t.app.inject({ url: '/assets/index-abc.js', headers: { 'accept-encoding': CHROME } })).headers['content-type'])).toContain(
      'javascript',
    );
    // A file with no smaller copy goes as it is.
    const tiny = await t.app.inject({ url: '/assets/tiny-abc.js', headers: { 'accept-encoding': CHROME } });
    expect([tiny.headers['content-encoding'], tiny.body]).toEqual([undefined, 'export{}']);
  });

  it('compresses the issuer’s stylesheet and scripts as they leave', async () => {
    for (const url of [STYLESHEET_PATH, WEBAUTHN_LIBRARY_PATH, PASSKEY_SCRIPT_PATH]) {
      const plain = await t.app.inject({ url, headers: { 'accept-encoding': 'identity' } });
      expect(plain.headers['content-encoding'], url).toBeUndefined();
      for (const encoding of ['br', 'gzip'] as const) {
        const res = await t.app.inject({ url, headers: { 'accept-encoding': encoding } });
        expect(res.headers['content-encoding'], url).toBe(encoding);
        expect(String(res.headers.vary).toLowerCase(), url).toContain('accept-encoding');
        expect(decoded(encoding, res.rawPayload), url).toBe(plain.body);
      }
    }
  });

  it('compresses the sign-in pages as they leave, and a browser reads them as before', async () => {
    const browser = new Browser();
    const page = await openSignIn(t, browser);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-encoding')).toMatch(/^(br|gzip)$/);
    for (const encoding of ['br', 'gzip']) {
      const again = await browser.get(page.url, { 'accept-encoding': encoding });
      expect(again.status).toBe(200);
      expect(again.headers.get('content-encoding')).toBe(encoding);
      expect(again.headers.get('vary')?.toLowerCase()).toContain('accept-encoding');
      expect(again.text).toContain('<form');
    }
    // API answers (JSON) are left as they are.
    const config = await t.app.inject({ url: '/api/config', headers: { 'accept-encoding': CHROME } });
    expect(config.headers['content-encoding']).toBeUndefined();
  });

  it('compresses the provider’s own pages too (the logout confirmation)', async () => {
    const p = await projectWithRelyingParty(t, await signedInAccount(t, d.db));
    const browser = new Browser();
    const tokens = await signInForTokens(t, browser, p, uniqueEmail('compressed'));
    const logoutUrl = client.buildEndSessionUrl(p.config, { id_token_hint: tokens.id_token as string }).href;
    for (const encoding of ['br', 'gzip']) {
      const page = await browser.get(logoutUrl, { 'accept-encoding': encoding });
      expect(page.headers.get('content-encoding')).toBe(encoding);
      expect(page.headers.get('vary')?.toLowerCase()).toContain('accept-encoding');
      expect(logoutForm(page).xsrf).toEqual(expect.any(String));
    }
    const plain = await browser.get(logoutUrl, { 'accept-encoding': 'identity' });
    expect([plain.headers.get('content-encoding'), logoutForm(plain).xsrf]).toEqual([null, expect.any(String)]);
  });
});
