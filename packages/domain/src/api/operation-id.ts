import { api } from './contract.ts';
import type { Endpoint } from './endpoint.ts';

const names = new Map<Endpoint, string>(Object.entries(api).map(([name, endpoint]) => [endpoint as Endpoint, name]));

/**
 * The name of a call in the contract (`listApps`): the OpenAPI operationId, which client
 * generators turn into method names. Undefined for an entry that is not in the contract.
 */
export function operationIdOf(endpoint: Endpoint): string | undefined {
  return names.get(endpoint);
}
