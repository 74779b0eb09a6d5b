import type Provider from 'oidc-provider';
import type { IssuerState } from './issuer-state.repository.ts';

/** How many projects' providers one instance keeps built (a cold one costs a key read and a build). */
export const PROVIDER_CACHE_SIZE = 100;

/**
 * How long a built provider is kept at most, whatever its version: a signing key whose grace has
 * passed leaves the JWKS within this long (docs/decisions/0028), without a version change.
 */
export const PROVIDER_MAX_AGE_MS = 10 * 60 * 1000;

/**
 * The built providers of the most recently used projects (least recently used goes first). Only a
 * cache: every request reads the project's version (one primary-key read) and a provider built from
 * another version is rebuilt, so a settings, state or key change made through any instance holds
 * at the next request (docs/decisions/0012).
 */
export function createProviderCache(
  build: (state: IssuerState) => Promise<Provider>,
  {
    max = PROVIDER_CACHE_SIZE,
    maxAgeMs = PROVIDER_MAX_AGE_MS,
    observe,
  }: {
    max?: number;
    maxAgeMs?: number;
    /** Told when a built provider is dropped for room or age, and the cache's size after each use. */
    observe?: { evicted(): void; size(entries: number): void };
  } = {},
) {
  const entries = new Map<string, { version: string; builtAt: number; provider: Promise<Provider> }>();
  return {
    providerFor(state: IssuerState): Promise<Provider> {
      // A provider holds its clients as of its build (issuer/client-cache.ts): their version too.
      const version = `${state.version}:${state.clientsVersion}`;
      const hit = entries.get(state.projectId);
      entries.delete(state.projectId);
      if (hit && hit.version === version && Date.now() - hit.builtAt < maxAgeMs) {
        entries.set(state.projectId, hit);
        observe?.size(entries.size);
        return hit.provider;
      }
      // A provider of this project too old to keep (a new version is a change, not an eviction).
      if (hit && hit.version === version) observe?.evicted();
      const entry = { version, builtAt: Date.now(), provider: build(state) };
      entries.set(state.projectId, entry);
      // A failed build is not kept: the next request tries again.
      entry.provider.catch(() => {
        if (entries.get(state.projectId) === entry) entries.delete(state.projectId);
      });
      for (const oldest of entries.keys()) {
        if (entries.size <= max) break;
        entries.delete(oldest);
        observe?.evicted();
      }
      observe?.size(entries.size);
      return entry.provider;
    },
    get size() {
      return entries.size;
    },
  };
}
