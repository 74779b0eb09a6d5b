import Provider, { type KoaContextWithOIDC } from 'oidc-provider';
import type { Db } from '../db/db.ts';
import type { EventOrigin } from '../events/end-user-event.ts';
import { findProjectUser, type ProjectUser } from '../people/end-users.repository.ts';
import type { PageRequest } from './project-pages.ts';

/** What a project provider's request tells its hooks (project-provider.ts, token-events.ts, project-logout.ts, project-applications.ts). */

/** What a provider page is rendered for: the browser's languages and the request's ui_locales. */
export function pageRequestOf(ctx: KoaContextWithOIDC, publicUrl: string): PageRequest {
  const uiLocales = ctx.oidc?.params?.ui_locales;
  return { acceptLanguage: ctx.get('accept-language'), ...(typeof uiLocales === 'string' ? { uiLocales } : {}), publicUrl };
}

/** Where a provider request comes from (its ip is the client's: X-Forwarded-For is pinned to it, sign-in-pages.ts). */
export function originOf(ctx: KoaContextWithOIDC | undefined, clientId: unknown): EventOrigin {
  const agent = ctx?.get('user-agent');
  return { ip: ctx?.ip ?? null, userAgent: agent ? agent : null, clientId: typeof clientId === 'string' ? clientId : null };
}

/** Reads a project's user through `db` (a transaction's, inside one). */
export type UserReader = (db: Db, id: string) => Promise<ProjectUser | null>;

/**
 * One read of a person per provider request: the provider asks for the account, then the events
 * for its identity. A read already made (or under way) is shared; otherwise it goes through the
 * `db` given, so a read inside a transaction stays inside it (PGlite's one connection would wait
 * for the transaction otherwise).
 */
export function perRequestUsers(projectId: string): UserReader {
  const read = new WeakMap<object, Map<string, Promise<ProjectUser | null>>>();
  return (db, id) => {
    const ctx = Provider.ctx;
    if (!ctx) return findProjectUser(db, projectId, id);
    let users = read.get(ctx);
    if (!users) read.set(ctx, (users = new Map()));
    const hit = users.get(id);
    if (hit) return hit;
    const found = findProjectUser(db, projectId, id);
    users.set(id, found);
    found.catch(() => users.delete(id));
    return found;
  };
}
