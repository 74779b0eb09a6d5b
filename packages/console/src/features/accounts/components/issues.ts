import type { z } from 'zod';

/** The message key of the first issue at `field` (or inside it: `permissions.0`) of a form's check, or null. */
export function issueAt(result: z.ZodSafeParseResult<unknown>, field: string): string | null {
  if (result.success) return null;
  const found = result.error.issues.find((i) => {
    const path = i.path.join('.');
    return path === field || path.startsWith(`${field}.`);
  });
  return found?.message ?? null;
}
