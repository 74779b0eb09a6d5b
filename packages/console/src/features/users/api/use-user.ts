import { useQuery } from '@tanstack/react-query';
import { api, request } from '../../../lib/api/index.ts';
import { usersKeys } from './query-keys.ts';

/** GET projects/{project}/users/{user}: the user, their passkeys and open sessions. */
export function useUser(projectId: string, userId: string) {
  return useQuery({
    queryKey: usersKeys.user(projectId, userId),
    queryFn: ({ signal }) => request(api.getEndUser, { params: { project: projectId, user: userId }, signal }),
  });
}
