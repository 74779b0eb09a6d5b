import { MantineProvider } from '@mantine/core';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { TranslationProvider } from '../src/lib/i18n/react.tsx';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { theme } from '../src/app/theme.ts';
import { i18n } from '../src/lib/i18n/index.ts';

/** One component with the providers it needs (Mantine without transitions or portals, texts, a router). */
export function renderUi(
  ui: ReactNode,
  { path = '/', before = [], userOptions }: { path?: string; before?: string[]; userOptions?: Parameters<typeof userEvent.setup>[0] } = {},
) {
  // `before`: addresses visited earlier, so that "back" has somewhere to go.
  const router = createMemoryRouter([{ path: '*', element: ui }], { initialEntries: [...before, path], initialIndex: before.length });
  // No pause between keystrokes unless a test asks for one (render-app.tsx).
  const user = userEvent.setup({ delay: null, ...userOptions });
  const view = render(
    <TranslationProvider i18n={i18n}>
      <MantineProvider theme={theme} env="test">
        <RouterProvider router={router} />
      </MantineProvider>
    </TranslationProvider>,
  );
  return {
    ...view,
    user,
    router,
    /** The in-memory address: path, query and hash. */
    location: () => `${router.state.location.pathname}${router.state.location.search}${router.state.location.hash}`,
  };
}
