import type { StepContext } from '../pages/site.ts';
import type { PasskeyCeremony } from './ceremony.ts';

/**
 * Issue 37 "Enrollment" (docs/decisions/0050): after every fallback sign-in a person is offered a
 * passkey on the device they are using, unless they said "Not now" on this device lately. The
 * browser remembers it, not the server: a per-issuer cookie lists keyed values of the people who
 * declined here (an HMAC of the issuer and the person's id: never their address, and nothing another
 * issuer can read), each with when it lapses.
 */

const LATER_COOKIE = 'lk_passkey_later';
/** How long "Not now" holds on one device: a month, then the offer comes back once. */
export const LATER_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** People remembered per browser (a shared computer): the oldest goes first. */
const LATER_MAX = 8;

type Later = Array<[key: string, until: number]>;

const laterKey = (c: PasskeyCeremony, userId: string) => c.deps.secretBox.hmac('passkey-later', `${c.deps.issuerKey}\n${userId}`).slice(0, 22);
const laterContext = (c: PasskeyCeremony) => `passkey-later:${c.deps.issuerKey}`;

function readLater(c: PasskeyCeremony, ctx: StepContext): Later {
  const sealed = ctx.request.cookies[LATER_COOKIE];
  if (!sealed) return [];
  try {
    const now = c.deps.clock.now().getTime();
    const list = c.deps.secretBox.openJson<Later>(sealed, laterContext(c));
    return Array.isArray(list) ? list.filter(([, until]) => until > now) : [];
  } catch {
    return [];
  }
}

/** Did this person say "Not now" in this browser within LATER_TTL_MS? */
export function declinedHere(c: PasskeyCeremony, ctx: StepContext, userId: string): boolean {
  const key = laterKey(c, userId);
  return readLater(c, ctx).some(([k]) => k === key);
}

/** Remembers this person's "Not now" in this browser until LATER_TTL_MS from now. */
export function rememberDecline(c: PasskeyCeremony, ctx: StepContext, userId: string): void {
  const key = laterKey(c, userId);
  const until = c.deps.clock.now().getTime() + LATER_TTL_MS;
  const list: Later = [...readLater(c, ctx).filter(([k]) => k !== key), [key, until] as [string, number]].slice(-LATER_MAX);
  ctx.reply.setCookie(LATER_COOKIE, c.deps.secretBox.sealJson(list, laterContext(c)), {
    // The issuer's pages only: a project's own host or custom domain is its own (mount path '').
    path: c.deps.mountPath || '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: c.deps.publicUrl.startsWith('https:'),
    maxAge: LATER_TTL_MS / 1000,
  });
}
