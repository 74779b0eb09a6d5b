import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './app/styles.ts';
import { App } from './app/app.tsx';
import { createAppRouter } from './app/router.tsx';
import { i18n } from './lib/i18n/index.ts';
import { createQueryClient } from './lib/query-client.ts';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

const queryClient = createQueryClient();

createRoot(container).render(
  <StrictMode>
    <App router={createAppRouter(queryClient)} queryClient={queryClient} i18n={i18n} />
  </StrictMode>,
);
