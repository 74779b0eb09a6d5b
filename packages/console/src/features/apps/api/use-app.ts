import { useQuery } from '@tanstack/react-query';
import { api, requestTagged } from '../../../lib/api/index.ts';
import { appsKeys } from './query-keys.ts';

/** spec §7: GET apps/{application}, with its ETag (sent back as If-Match when it is saved). */
export function useApp(applicationId: string) {
  return useQuery({
    queryKey: appsKeys.app(applicationId),
    queryFn: ({ signal }) => requestTagged(api.getApp, { params: { application: applicationId }, signal }),
  });
}
