import { reachesAny, rankSearchResults, SEARCH_KINDS, searchReach, type SearchQuery, type SearchResponse } from '@latchkey/domain';
import type { Db } from '../../db/db.ts';
import type { Actor } from '../../http/actor.ts';
import { findMatches } from './search.repository.ts';

export interface SearchServiceDeps {
  db: Db;
}

export function createSearchService({ db }: SearchServiceDeps) {
  return {
    /**
     * Issue 13 "Find anything" (docs/decisions/0023): each kind is looked for only where the
     * caller passes the guard of the page it opens (spec §6, `searchReach` from the permissions
     * alone), one statement per kind whatever the number of projects; a project the caller cannot
     * see gives nothing, not even its name. Closed projects are found like open ones.
     */
    async search(actor: Actor, query: SearchQuery): Promise<SearchResponse> {
      const terms = { text: query.q, lower: query.q.toLowerCase(), current: query.project ?? null, limit: query.limit };
      const found = await Promise.all(
        SEARCH_KINDS.map((kind) => {
          const reach = searchReach(actor.permissions, kind);
          return reachesAny(reach) ? findMatches(db, kind, terms, reach) : [];
        }),
      );
      return { results: rankSearchResults(found.flat(), query.project, query.limit) };
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
