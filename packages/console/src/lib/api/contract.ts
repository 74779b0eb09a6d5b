import type { Api, Endpoint, HttpMethod } from '@latchkey/domain';
import { apiRoutes } from 'virtual:api-routes';

/**
 * A contract entry as the client sees it at run time: method and path. The full entry (its schemas)
 * is only in the type, so calls are typed by the contract without shipping zod to the browser.
 */
export interface ApiRoute<E extends Endpoint = Endpoint> {
  readonly method: HttpMethod;
  readonly path: string;
  /** Type only: the contract entry this route stands for. */
  readonly endpoint?: E;
}

export type ApiRoutes = { readonly [K in keyof Api]: ApiRoute<Api[K]> };

/** Every call of the API contract (domain `api`), by the same names: `request(api.createProject, …)`. */
export const api = apiRoutes as ApiRoutes;
