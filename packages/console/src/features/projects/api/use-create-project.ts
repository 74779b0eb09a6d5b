import { PIN_LENGTH_DEFAULT } from '@latchkey/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, request } from '../../../lib/api/index.ts';
import { resourceKey } from '../../../lib/api/query-key.ts';
import { useSessionAccount } from '../../../lib/session.ts';

/**
 * spec §7: POST projects with name, pinLength and the creator's email. Afterwards the account is
 * refreshed (the creator now holds the project's permissions) and so is the project list, before
 * the caller moves on to the new project.
 */
export function useCreateProject() {
  const queryClient = useQueryClient();
  const account = useSessionAccount();
  return useMutation({
    mutationFn: async (name: string) => {
      const created = await request(api.createProject, {
        body: { name, pinLength: PIN_LENGTH_DEFAULT, email: account.email },
      });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: resourceKey(api.getAccount) }),
        queryClient.invalidateQueries({ queryKey: resourceKey(api.listAccountProjects, { accountId: account.id }) }),
      ]);
      return created;
    },
  });
}
