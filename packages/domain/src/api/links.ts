import { appsApi } from './contract.ts';
import { buildPath, type Endpoint } from './endpoint.ts';

/**
 * A link the API answers for a call of its own, relative to the API base and without a leading
 * slash (`apps/abc/keys`): per RFC 3986 it resolves against the base (`/api/`), where a link with a
 * leading slash would resolve against the host and miss the API. Built from the contract entry, so
 * the path is written once.
 */
export function apiLink(endpoint: Pick<Endpoint, 'path'>, params: Record<string, string | number>): string {
  return buildPath(endpoint.path, params).replace(/^\/+/, '');
}

/** spec §3 Application: where its keys are read and replaced, and where new keys are generated. */
export function applicationLinks(applicationId: string): { keysEndpoint: string; generateNewKeysEndpoint: string } {
  return {
    keysEndpoint: apiLink(appsApi.getAppKeys, { application: applicationId }),
    generateNewKeysEndpoint: apiLink(appsApi.generateAppKeys, { application: applicationId }),
  };
}
