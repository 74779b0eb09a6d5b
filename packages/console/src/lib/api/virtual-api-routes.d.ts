// Generated at build time from the domain contract by the `latchkey:contract-routes` Vite plugin.
declare module 'virtual:api-routes' {
  import type { HttpMethod } from '@latchkey/domain';

  export const apiRoutes: Record<string, { method: HttpMethod; path: string }>;
}
