import { z } from 'zod';

/** The signed-in account (spec §3). */
export const sessionAccountSchema = z.object({
  id: z.string(),
  email: z.string(),
  permissions: z.array(z.string()),
});
export type SessionAccount = z.infer<typeof sessionAccountSchema>;

export const authUrlQuerySchema = z.object({
  redirectURL: z.string().min(1, { error: 'validation.required' }).max(2000, { error: 'validation.max_length' }),
  /** The path to return to after sign-in (spec §7 "state_next"). */
  state_next: z.string().max(2000, { error: 'validation.max_length' }).optional(),
});
export const authUrlResponseSchema = z.object({ authUrl: z.string() });

export const loginBodySchema = z.object({
  code: z.string().min(1, { error: 'validation.required' }).max(4000, { error: 'validation.max_length' }),
  redirectURL: z.string().min(1, { error: 'validation.required' }).max(2000, { error: 'validation.max_length' }),
  /** The OAuth `state` the provider returned with the code. */
  state: z.string().max(200, { error: 'validation.max_length' }).optional(),
});
/** The path the sign-in began on, if any. */
export const loginResponseSchema = z.object({ next: z.string().nullable() });

export const logoutResponseSchema = z.object({ redirectUrl: z.string() });

/** Which of the console's own paths may be a return target: a local absolute path, nothing else. */
export function isSafeNextPath(next: string): boolean {
  return next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') && !/[\r\n]/.test(next);
}

/** Settings of the deployment the console shows (README: DOCS_URL, SUPPORT_URL). */
export const consoleConfigSchema = z.object({
  docsUrl: z.string(),
  supportUrl: z.string(),
  registration: z.enum(['open', 'closed']),
});
export type ConsoleConfig = z.infer<typeof consoleConfigSchema>;
