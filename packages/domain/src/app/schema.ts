import { z } from 'zod';
import { declareList } from '../list/declare.ts';
import { cleanString, isCleanText, isUri, optionalUrl, requiredText, requiredUri } from '../validation/fields.ts';
import { APPLICATION_TYPES, backchannelLogoutUriProblem, redirectUriProblems, type ApplicationType } from './rules.ts';

export const PLATFORM_CODES = ['oidc'] as const;
export type PlatformCode = (typeof PLATFORM_CODES)[number];

/** spec §3 Application. The two endpoints are paths under the API base. */
export const applicationSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  name: z.string(),
  platformCode: z.enum(PLATFORM_CODES),
  applicationType: z
    .enum(APPLICATION_TYPES)
    .describe('web: a server-side app with a secret; spa: a single-page app; native: a mobile, desktop or command-line app'),
  enabled: z.boolean(),
  logoUrl: z.string(),
  keysEndpoint: z.string(),
  generateNewKeysEndpoint: z.string(),
});
export type Application = z.infer<typeof applicationSchema>;

/**
 * A redirect URI list: one or more, each required and a URI (spec §5 "New app"), that the project's
 * issuer can return to (redirectUriProblems: no fragment; a native app's list, RFC 8252).
 */
export const redirectUrisSchema = redirectUrisOf();

/** The redirect URI list of an application of `type` (none: read from the list, redirectUriProblems). */
export function redirectUrisOf(type?: ApplicationType, min = 1) {
  return z
    .array(requiredUri(), { error: 'validation.required' })
    .min(min, { error: 'validation.required' })
    .max(50, { error: 'validation.out_of_range' })
    .superRefine((uris, ctx) => {
      redirectUriProblems(uris, type).forEach((problem, index) => {
        // An entry that is no URI at all has its issue already.
        if (problem && isUri(uris[index] ?? '')) ctx.addIssue({ code: 'custom', path: [index], message: problem });
      });
    });
}

/**
 * Issue 22, RP-Initiated Logout 1.0 §3: where the application may ask to be sent after signing its
 * user out, matched exactly; none or more, by the redirect URIs' rules.
 */
export const postLogoutRedirectUrisSchema = redirectUrisOf(undefined, 0);

/**
 * Issue 22, Back-Channel Logout 1.0 §2.2: where the issuer posts a logout token when a session of
 * the application's user ends; '' is none. Its rules by type: backchannelLogoutUriProblem (without
 * a type, a web app's).
 */
export function backchannelLogoutUriOf(type: ApplicationType = 'web') {
  return z
    .string({ error: 'validation.invalid_url' })
    .trim()
    .max(2000, { error: 'validation.max_length' })
    .refine(isCleanText, { error: 'validation.invalid_characters' })
    .superRefine((uri, ctx) => {
      // A URL the parser would take after dropping or encoding what was typed is not the one stored.
      const problem = /\s/.test(uri) ? 'validation.invalid_url' : backchannelLogoutUriProblem(uri, type);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });
}

/** spec §7: POST apps with platformCode, name, url, projectId. */
export const applicationCreateSchema = z.object({
  platformCode: z.enum(PLATFORM_CODES, { error: 'validation.invalid_value' }).default('oidc'),
  applicationType: z.enum(APPLICATION_TYPES, { error: 'validation.invalid_value' }).default('web'),
  name: requiredText(),
  url: optionalUrl().default(''),
  projectId: cleanString(100).min(1, { error: 'validation.required' }),
});
export type ApplicationCreate = z.input<typeof applicationCreateSchema>;

export const applicationCreatedSchema = z.object({ id: z.string(), projectId: z.string(), keysEndpoint: z.string() });

/** spec §5 "App edit": name required, max 250; logoUrl a URL. `enabled` carries disable / enable. */
export const applicationUpdateSchema = z.object({
  name: requiredText(),
  logoUrl: optionalUrl().default(''),
  enabled: z.boolean({ error: 'validation.invalid_value' }),
});
export type ApplicationUpdate = z.input<typeof applicationUpdateSchema>;

/** The form of "new app" in the console: the app and its redirect URIs together. */
export const applicationCreateFormSchema = z.object({
  name: requiredText(),
  redirectURI: redirectUrisSchema,
});
export type ApplicationCreateForm = z.input<typeof applicationCreateFormSchema>;

/**
 * The keys' registration: redirect URIs, and (issue 22) post-logout redirect URIs and the
 * back-channel logout URI — each left as it is by a PUT without it (spec §7's body names only
 * redirectURI), none when created without.
 */
export const keysBodySchema = z.object({
  redirectURI: redirectUrisSchema,
  postLogoutRedirectURI: postLogoutRedirectUrisSchema.optional(),
  backchannelLogoutURI: backchannelLogoutUriOf().optional(),
});
export type KeysBody = z.input<typeof keysBodySchema>;

/** spec §3 Application keys. `clientSecret` is filled only in the answer that generated it. */
export const applicationKeysSchema = z.object({
  clientId: z.string(),
  clientSecret: z.string(),
  redirectURI: z.array(z.string()),
  postLogoutRedirectURI: z
    .array(z.string())
    .describe('Where the application may send its user after signing them out (RP-Initiated Logout), matched exactly'),
  backchannelLogoutURI: z
    .string()
    .describe("Where the issuer posts a signed logout token when a session of the application's user ends (Back-Channel Logout); '' none"),
  /**
   * Beyond spec §3 (issue 8): the issuer address of the application's project, so the settings page
   * shows everything a developer needs to connect (its discovery document is under it).
   */
  issuer: z.string(),
});
/** The keys as stored: everything but the project's issuer address, which the server adds. */
export type StoredApplicationKeys = Omit<z.infer<typeof applicationKeysSchema>, 'issuer'>;
export type ApplicationKeys = z.infer<typeof applicationKeysSchema>;

/**
 * spec §7: GET projects/{project}/apps with sort, direction, offset, limit, name (contained, any
 * case), enabled, platformCode; spec §9: by name ascending.
 */
export const applicationList = declareList({
  sorts: ['name', 'platformCode', 'enabled', 'createdAt'],
  defaultSort: { sort: 'name', direction: 'asc' },
  filters: {
    name: { kind: 'text', match: 'contains', caseless: true },
    enabled: { kind: 'yesNo' },
    platformCode: { kind: 'oneOf', values: PLATFORM_CODES },
  },
});
export const applicationListQuerySchema = applicationList.query;
export type ApplicationListQuery = z.infer<typeof applicationListQuerySchema>;
