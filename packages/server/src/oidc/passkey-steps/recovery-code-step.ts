import { isCleanText, isEmail, TEXT_MAX_LENGTH } from '@latchkey/domain';
import { recoveryCodeOf, recoveryTextsOf as recoveryTexts } from '../recovery-codes.ts';
import { hitAll, type RateLimit } from '../../db/rate-limits.repository.ts';
import { rateLimitKeyOf } from '../../http/client-address.ts';
import { MAX_TRIES_PER_ADDRESS, MAX_TRIES_PER_CLIENT, TRIES_WINDOW_MS } from '../login-codes.service.ts';
import type { FormBody, Identity, StepContext, StepOutcome } from '../pages/site.ts';
import { escapeHtml, fieldError, signInPage, textsOf, type PageBrand } from '../pages/views.ts';
import type { PasskeyLinks } from '../pages/passkey-views.ts';
import type { PasskeyCeremony } from './ceremony.ts';

/**
 * "Use a recovery code" (issue 37, docs/decisions/0051): the identity and one of the person's
 * recovery codes stand for verifying the identity, once; the person then creates a new passkey (the
 * register page, as after an emailed code). Tries are limited as the emailed codes' are: per
 * identity × client address and per client address, never per identity alone, so a stranger's
 * guesses use up their own allowance and never lock the person out (a code has 50 bits: the
 * allowances make guessing hopeless).
 */

/** Page 1's link, where the issuer has recovery codes. */
export const recoveryLinkText = (c: PasskeyCeremony): string | null => (c.deps.recoveryCodes ? recoveryTexts(c.deps.brand).useCodeLink : null);

function recoveryCodePage(links: PasskeyLinks, options: { identity?: string; error?: string; codeError?: boolean }, brand: PageBrand): string {
  const t = recoveryTexts(brand);
  const s = textsOf(brand);
  const err = fieldError('recovery-code', options.error);
  const email = brand.idType !== 'alphanumeric';
  return signInPage(
    t.useCodeHeading,
    `<h1>${escapeHtml(t.useCodeHeading)}</h1>
<p class="hint">${escapeHtml(t.useCodeHint)}</p>
<form method="post" action="${escapeHtml(links.recoveryAction)}" novalidate>
<label for="email">${escapeHtml(brand.idLabel)}</label>
<input class="field" id="email" name="email" ${email ? 'type="email" autocomplete="email" inputmode="email"' : 'type="text" autocomplete="username" autocapitalize="none" spellcheck="false"'} required maxlength="${TEXT_MAX_LENGTH}" value="${escapeHtml(options.identity ?? '')}">
<label for="recovery-code">${escapeHtml(t.codeLabel)}</label>
<input id="recovery-code" name="code" type="text" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="20" required${err.attrs}>
${err.html}
<button class="primary" type="submit">${escapeHtml(t.continue)}</button>
</form>
<div class="links">
<a href="${escapeHtml(links.emailPage)}">${escapeHtml(s.signInTitle)}</a>
<a href="${escapeHtml(links.cancel)}">${escapeHtml(s.cancel)}</a>
</div>`,
    brand,
  );
}

export async function recoveryPage(c: PasskeyCeremony, ctx: StepContext): Promise<StepOutcome> {
  if (!c.deps.recoveryCodes) return c.startOver(ctx);
  return { status: 200, page: recoveryCodePage(c.links(ctx), {}, c.deps.brand) };
}

/** The identity as typed: an address, or a user id (docs/decisions/0018), lower-cased. */
function identityOf(typed: string): Identity | null {
  const value = typed.trim().toLowerCase();
  if (!value || value.length > TEXT_MAX_LENGTH || !isCleanText(value)) return null;
  return value.includes('@') ? (isEmail(value) ? { type: 'email', value } : null) : { type: 'alphanumeric', value };
}

export async function recoverySubmit(c: PasskeyCeremony, ctx: StepContext, form: FormBody): Promise<StepOutcome> {
  const { db, clock, secretBox, issuerKey, events, brand, recoveryCodes } = c.deps;
  if (!recoveryCodes) return c.startOver(ctx);
  const t = recoveryTexts(brand);
  const identity = identityOf(form.email ?? '');
  const typed = (form.email ?? '').trim().slice(0, TEXT_MAX_LENGTH);
  const again = (status: number, error: string): StepOutcome => ({ status, page: recoveryCodePage(c.links(ctx), { identity: typed, error }, brand) });
  if (!identity) return again(400, textsOf(brand).invalidEmail);
  const code = recoveryCodeOf(form.code ?? '');
  if (code === null) return again(400, t.codeFormat);
  // Counted before the code is looked at, known identity or not (the answer tells nobody which).
  const client = rateLimitKeyOf(ctx.request.ip);
  const limit = (name: string, key: string[], max: number): RateLimit => ({
    name,
    bucket: secretBox.hmac('rate-limit', [issuerKey, 'recovery-try', ...key].join('\n')),
    max,
    windowMs: TRIES_WINDOW_MS,
  });
  const refused = await hitAll(
    db,
    issuerKey,
    [limit('address', [identity.value, client], MAX_TRIES_PER_ADDRESS), limit('client', [client], MAX_TRIES_PER_CLIENT)],
    clock.now(),
  );
  if (refused) return again(429, t.tooManyTries);
  const person = await recoveryCodes.personOf(identity);
  const left = person ? await recoveryCodes.use(person.id, code, ctx.origin) : null;
  if (!person || left === null) {
    await events?.refusal(ctx.origin, {
      scope: 'oidc',
      status: 'failed',
      action: 'recovery.code_used',
      userId: identity.value,
      details: { reason: 'wrong' },
    });
    return again(400, t.codeRefused);
  }
  c.save(ctx, { userId: person.id, email: identity.value, step: 'verified', via: 'recovery_code' });
  return { redirect: c.links(ctx).registerAction };
}
