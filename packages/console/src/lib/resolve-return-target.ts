import { isSafeNextPath } from '@latchkey/domain';
import { matchRouteName, routeTable } from './routes.ts';

// Kept apart from routes.ts: the domain module holding isSafeNextPath also builds zod schemas, which
// only the sign-in page (loaded on demand) should pull in.

/**
 * spec §2 "Login callback": after sign-in, go to the next target only if it resolves to one of the
 * console's named routes (never back into the sign-in pages); otherwise null.
 */
export function resolveReturnTarget(next: string | null | undefined): string | null {
  if (!next || !isSafeNextPath(next)) return null;
  const base = 'http://console.invalid';
  let url: URL;
  try {
    url = new URL(next, base);
  } catch {
    return null;
  }
  if (url.origin !== base) return null;
  const name = matchRouteName(url.pathname);
  if (name === null || routeTable[name].scope === 'public') return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
