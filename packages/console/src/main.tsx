import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './app/styles.ts';
import { App } from './app/app.tsx';
import { createAppRouter } from './app/router.tsx';
import { browser } from './lib/browser.ts';
import { changeLanguage, i18n, startLanguage } from './lib/i18n/index.ts';
import { createQueryClient } from './lib/query-client.ts';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

const queryClient = createQueryClient();

// issue 13: the first render speaks the language this browser last used, or its own; English is in
// the first download, another language's texts are fetched first (a failed fetch leaves English).
const language = startLanguage(browser.storedLanguage(), browser.languages());
const ready = language === 'en' ? Promise.resolve() : changeLanguage(language).catch(() => undefined);

void ready.then(() =>
  createRoot(container).render(
    <StrictMode>
      <App router={createAppRouter(queryClient)} queryClient={queryClient} i18n={i18n} />
    </StrictMode>,
  ),
);
