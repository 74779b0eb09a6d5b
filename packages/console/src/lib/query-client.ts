import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api/index.ts';

/** Client errors (4xx) will answer the same again; only a lost connection or a 5xx is retried, once. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
  return failureCount < 1;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // Stale at once: a page shown again asks the server again (and so notices an ended session).
      queries: { retry: shouldRetry, staleTime: 0 },
      mutations: { retry: false },
    },
  });
}
