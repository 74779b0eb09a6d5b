/**
 * spec §3 customDomain and customMobileDomain: the addresses a project's issuer and its mobile
 * deep-link files are served at, routed by the request's Host (docs/decisions/0016).
 */

/**
 * The web origin a domain setting names — `https://auth.example.com` or `http://…`, with a port if
 * it is not the scheme's default, lower case — or null when the value names no origin alone (another
 * scheme, a path, a query, a fragment or credentials after the host).
 */
export function domainOrigin(value: string): string | null {
  if (value === '' || /\s/.test(value) || /[?#]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.hostname === '' || url.username !== '' || url.password !== '' || url.pathname !== '/') return null;
  return url.origin;
}

/** The host (and port, as the URL gives it) a domain setting is routed by, or null. */
export function domainHost(value: string): string | null {
  const origin = domainOrigin(value);
  return origin === null ? null : new URL(origin).host;
}

const HOST_MAX_LENGTH = 260;
// A registered name or IPv4 address (letters, digits, '-', '.', '_'), or a bracketed IPv6 address, and a port.
const HOST_SYNTAX = /^(?:[a-z0-9._-]+|\[[0-9a-f:.]+\])(?::[0-9]{1,5})?$/;

/**
 * What a request's Host is compared with: the value in lower case, or null when it cannot be a
 * host a domain setting names (such a request is simply not routed to a project).
 */
export function requestHostKey(host: string | undefined): string | null {
  if (!host || host.length > HOST_MAX_LENGTH) return null;
  const key = host.toLowerCase();
  return HOST_SYNTAX.test(key) ? key : null;
}

/** The deep-link association files (spec §3 associationIOS, associationAndroid) and where they are served. */
export const ASSOCIATION_FILES = {
  associationIOS: '/.well-known/apple-app-site-association',
  associationAndroid: '/.well-known/assetlinks.json',
} as const;
export type AssociationField = keyof typeof ASSOCIATION_FILES;

/** Apple's limit for apple-app-site-association, uncompressed. */
export const APPLE_ASSOCIATION_MAX_BYTES = 128 * 1024;

/**
 * Can this text be served as the association file? Apple's apple-app-site-association is a JSON
 * object of at most 128 KB; Android's assetlinks.json is a JSON array of statements. Empty means
 * none (404).
 */
export function isAssociationFile(field: AssociationField, text: string): boolean {
  if (text.trim() === '') return false;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  if (field === 'associationAndroid') return Array.isArray(value);
  return value !== null && typeof value === 'object' && !Array.isArray(value) && new TextEncoder().encode(text).length <= APPLE_ASSOCIATION_MAX_BYTES;
}
