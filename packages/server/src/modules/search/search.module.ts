import { searchApi } from '@latchkey/domain';
import { apiModule } from '../api-module.ts';
import { createSearchService } from './search.service.ts';

/** Issue 13: the console's command palette, read from the replica when there is one (docs/decisions/0035). */
export default apiModule(searchApi, {
  services: ({ readDb }) => createSearchService({ db: readDb }),
  endpoints: (search) => ({
    search: async ({ query, actor }) => search.search(actor(), query),
  }),
});
