// spec §9: business constants and limits.
export const FREE_TIER_MONTHLY_AUTHENTICATIONS = 1000;
export const TEXT_MAX_LENGTH = 250;
/** The client id of the end user's account page at every project's issuer (issue 24, docs/decisions/0040). */
export const ACCOUNT_CLIENT_ID = 'latchkey-account';
export const PIN_LENGTH_MIN = 4;
export const PIN_LENGTH_MAX = 6;
export const PIN_LENGTH_DEFAULT = 4;
export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 10;
export const PAGINATION_SIBLINGS = 2;
export const SCOPES = ['oidc', 'dvs-auth', 'dvs-verify', 'dvs-reg', 'reg-code', 'authcode'] as const;
export type Scope = (typeof SCOPES)[number];
export const USAGE_EVENT_KEYS = ['oidc', 'jwt', 'dvs-auth', 'dvs-verify', 'reg-code'] as const;
export type UsageEventKey = (typeof USAGE_EVENT_KEYS)[number];
/** spec §3 "Usage response": `issued` counts device registrations, the event keys count events. */
export type UsageKey = 'issued' | UsageEventKey;
/** The country of an address that has none (private, loopback, not in the database): CLDR's "Unknown Region". */
export const UNKNOWN_COUNTRY = 'ZZ';
export const LANGUAGES = ['en', 'fr', 'ro'] as const;
/** A language the product speaks (spec §9): the console, the hosted page and their mail. */
export type Language = (typeof LANGUAGES)[number];
export const THEMES = ['classic'] as const;
export const REVOCATION_REASON = 'PORTAL_REVOKE';
export const AUDIT_RESULTS = ['success', 'failed', 'created', 'disabled', 'denied', 'error'] as const;
/** spec §4 "Audit result values": the eventStatus of every audit event is one of these, chosen explicitly. */
export type AuditResult = (typeof AUDIT_RESULTS)[number];
export const SUBMIT_LINGER_MS = 600;
export const COPY_CONFIRMATION_MS = 2000;
export const FILTER_ERROR_FLASH_MS = 500;
export const CHART_HEIGHT = 400;
/** The console session's cookie: an opaque id, httpOnly (DESIGN "Sessions"). */
export const SESSION_COOKIE = 'lk_session';
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'X-XSRF-TOKEN';
export const REQUEST_TIMEOUT_MS = 0;
