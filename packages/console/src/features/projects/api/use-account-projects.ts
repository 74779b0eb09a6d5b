import { useQuery } from '@tanstack/react-query';
import { api, request } from '../../../lib/api/index.ts';
import { projectsKeys } from './query-keys.ts';
import { useSessionAccount } from '../../../lib/session.ts';

/** spec §7: GET accounts/{accountId}/projects, the projects of the signed-in account. */
export function useAccountProjects() {
  const account = useSessionAccount();
  return useQuery({
    queryKey: projectsKeys.accountProjects(account.id),
    queryFn: ({ signal }) => request(api.listAccountProjects, { params: { accountId: account.id }, signal }),
  });
}
