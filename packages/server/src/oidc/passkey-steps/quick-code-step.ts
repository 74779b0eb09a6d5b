import { isEmail, TEXT_MAX_LENGTH } from '@latchkey/domain';
import { safeEqual } from '../../crypto.ts';
import { hitAll, type RateLimit } from '../../db/rate-limits.repository.ts';
import { rateLimitKeyOf } from '../../http/client-address.ts';
import { quickCodeEntryPage } from '../pages/passkey-views.ts';
import type { FormBody, StepContext, StepOutcome } from '../pages/site.ts';
import { textsOf } from '../pages/views.ts';
import { QUICK_CODE_TRIES, QUICK_CODE_TRIES_PER_CLIENT, QUICK_CODE_TRIES_PER_CODE, QUICK_CODE_TTL_MS } from '../passkeys.ts';
import type { PasskeyCeremony } from './ceremony.ts';

/**
 * "I have a QuickCode" (docs/decisions/0017): the address and a code another device of the user
 * issued stand for verifying the address; the user then creates a passkey here.
 */

export async function quickCodePage(c: PasskeyCeremony, ctx: StepContext): Promise<StepOutcome> {
  if (!c.deps.quickCodes.enabled) return c.startOver(ctx);
  return { status: 200, page: quickCodeEntryPage(c.links(ctx), {}, c.deps.brand) };
}

export async function quickCodeSubmit(c: PasskeyCeremony, ctx: StepContext, form: FormBody): Promise<StepOutcome> {
  const { db, clock, secretBox, issuerKey, events, brand } = c.deps;
  const { codes } = c;
  if (!codes) return c.startOver(ctx);
  const t = textsOf(brand);
  const email = (form.email ?? '').trim().toLowerCase();
  const code = (form.code ?? '').replace(/\s+/g, '');
  const again = (status: number, error: string): StepOutcome => ({ status, page: quickCodeEntryPage(c.links(ctx), { email, error }, brand) });
  if (!email || email.length > TEXT_MAX_LENGTH || !isEmail(email)) return again(400, t.invalidEmail);
  if (!/^\d{6}$/.test(code)) return again(400, t.quickCodeFormat);
  if (await c.tooMany(ctx, 'quickcode', QUICK_CODE_TRIES_PER_CLIENT)) return again(429, t.tooManyTries);
  const refuse = async (reason: string) => {
    await events?.refusal(ctx.origin, c.quickCodeEvent(email, 'failed', 'reg_code.used', { reason }));
    return again(400, t.quickCodeRefused);
  };
  const user = await codes.store.userByEmail(email);
  const stored = user ? await codes.store.find(user.id) : null;
  if (!user || !stored || stored.usedAt || stored.expiresAt.getTime() <= clock.now().getTime()) return refuse('no_code');
  // Each try is counted before it is compared (docs/decisions/0017, issue 22): five a client address
  // (IPv6: its /64) at this code, so a stranger cannot use up the user's, then fifty from everyone.
  const fromHere: RateLimit = {
    name: 'quickcode-try',
    bucket: secretBox.hmac('rate-limit', ['quickcode-try', issuerKey, user.id, stored.codeHash, rateLimitKeyOf(ctx.request.ip)].join('\n')),
    max: QUICK_CODE_TRIES,
    windowMs: QUICK_CODE_TTL_MS,
  };
  if ((await hitAll(db, issuerKey, [fromHere], clock.now())) !== null) return refuse('too_many');
  if ((await codes.store.countTry({ userId: user.id, codeHash: stored.codeHash, max: QUICK_CODE_TRIES_PER_CODE })) === null) {
    return refuse('too_many');
  }
  if (!safeEqual(c.quickCodeHash(user.id, code), stored.codeHash)) return refuse('wrong');
  const usedNow = await db.transaction(async (tx) => {
    if (!(await codes.store.use(tx, { userId: user.id, codeHash: stored.codeHash, now: clock.now() }))) return false;
    await events?.record(tx, ctx.origin, c.quickCodeEvent(email, 'success', 'reg_code.used', { issuedBy: stored.issuedBy }));
    return true;
  });
  if (!usedNow) return refuse('used');
  c.save(ctx, { userId: user.id, email, step: 'verified', via: 'reg_code' });
  return { redirect: c.links(ctx).registerAction };
}
