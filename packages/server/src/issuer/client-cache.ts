import type { Client } from './project-applications.ts';
import type { IssuerState } from './issuer-state.repository.ts';
import { PROVIDER_CACHE_SIZE } from './provider-cache.ts';

/** Client ids one project keeps looked up (unknown ones too: a stranger's guesses push out the oldest, never grow it). */
export const CLIENTS_PER_PROJECT = 1000;

/**
 * The clients an instance has looked up, per project, kept while the project's version and its
 * clients' version (projects.clients_version, raised by every write to its applications and keys)
 * are those the request read: a sign-in reads a client once per instance, not at each of its steps
 * (docs/decisions/0030). Only a cache: what it answers is as fresh as the request's issuer state.
 */
export function createClientCache(
  find: (clientId: string) => Promise<Client | null>,
  maxProjects = PROVIDER_CACHE_SIZE,
  maxClients = CLIENTS_PER_PROJECT,
) {
  const projects = new Map<string, { key: string; clients: Map<string, Promise<Client | null>> }>();
  return {
    /** The lookup of `state`'s clients, as of that state. */
    of(state: IssuerState): (clientId: string) => Promise<Client | null> {
      const key = `${state.version}:${state.clientsVersion}`;
      let entry = projects.get(state.projectId);
      projects.delete(state.projectId);
      if (entry?.key !== key) entry = { key, clients: new Map() };
      projects.set(state.projectId, entry);
      for (const oldest of projects.keys()) {
        if (projects.size <= maxProjects) break;
        projects.delete(oldest);
      }
      const { clients } = entry;
      return (clientId) => {
        const hit = clients.get(clientId);
        if (hit) return hit;
        const found = find(clientId);
        clients.set(clientId, found);
        // A failed read is not kept: the next request reads again.
        found.catch(() => {
          if (clients.get(clientId) === found) clients.delete(clientId);
        });
        for (const oldest of clients.keys()) {
          if (clients.size <= maxClients) break;
          clients.delete(oldest);
        }
        return found;
      };
    },
  };
}

export type ClientCache = ReturnType<typeof createClientCache>;
