import { MantineProvider } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { Translator as I18n } from '../lib/i18n/runtime.ts';
import { lazy, Suspense, type ReactNode } from 'react';
import { TranslationProvider } from '../lib/i18n/react.tsx';
import { cssVariablesResolver, theme } from './theme.ts';

// Notifications are shown only after something went wrong: their code is not in the first download.
// Shown before the host is loaded, they wait in the store and appear when it mounts.
const NotificationsHost = lazy(() => import('./notifications-host.tsx'));

interface AppProvidersProps {
  queryClient: QueryClient;
  i18n: I18n;
  children: ReactNode;
  /** `test` turns off transitions and portals (component tests). */
  env?: 'default' | 'test';
}

export function AppProviders({ queryClient, i18n, children, env = 'default' }: AppProvidersProps) {
  return (
    <TranslationProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        {/* The color scheme follows the system until the user picks one (then kept in localStorage). */}
        <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto" env={env}>
          <Suspense fallback={null}>
            <NotificationsHost />
          </Suspense>
          {children}
        </MantineProvider>
      </QueryClientProvider>
    </TranslationProvider>
  );
}
