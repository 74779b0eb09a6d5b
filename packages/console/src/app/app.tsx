import type { QueryClient } from '@tanstack/react-query';
import type { Translator as I18n } from '../lib/i18n/runtime.ts';
import { RouterProvider } from 'react-router/dom';
import type { createAppRouter } from './router.tsx';
import { AppProviders } from './app-providers.tsx';
import { SessionExpiredModal } from './session/session-expired-modal.tsx';

interface AppProps {
  router: ReturnType<typeof createAppRouter>;
  queryClient: QueryClient;
  i18n: I18n;
}

export function App({ router, queryClient, i18n }: AppProps) {
  return (
    <AppProviders queryClient={queryClient} i18n={i18n}>
      <RouterProvider router={router} />
      <SessionExpiredModal />
    </AppProviders>
  );
}
