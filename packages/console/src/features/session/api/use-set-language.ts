import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, request } from '../../../lib/api/index.ts';
import type { Language } from '../../../lib/i18n/index.ts';
import { accountQuery } from '../../../lib/session.ts';

const ACCOUNT = accountQuery.queryKey;

/** Remembers the console language the signed-in account chose (issue 13), for every browser it uses. */
export function useSetLanguage() {
  const queryClient = useQueryClient();
  return useMutation({
    // The choice holds in this session at once, saved or not (the menu says when it was not).
    onMutate: (language: Language) => {
      queryClient.setQueryData(ACCOUNT, (account) => (account ? { ...account, language } : account));
    },
    mutationFn: (language: Language) => request(api.setAccountLanguage, { body: { language } }),
    onSuccess: (account) => queryClient.setQueryData(ACCOUNT, account),
  });
}
