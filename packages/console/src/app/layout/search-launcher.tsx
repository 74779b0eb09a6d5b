import { Button, Kbd } from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { lazy, Suspense, useRef, useState } from 'react';
import { useTranslation } from '../../lib/i18n/react.tsx';
import { loadPendingTexts } from '../../lib/i18n/index.ts';
import classes from './layout.module.css';

// The palette's code and texts are fetched the first time it opens, not in the first download.
const CommandPalette = lazy(async () => {
  const [module] = await Promise.all([
    import('../../features/search/components/command-palette.tsx'),
    import('../feature-texts.ts').then(({ loadFeatureTexts }) => loadFeatureTexts('search')),
  ]);
  await loadPendingTexts();
  return module;
});

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** issue 13 "Find anything": the top bar's search button, and Ctrl+K (⌘K) anywhere, open the command palette. */
export function SearchLauncher({ projectId }: { projectId: string | null }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [loaded, setLoaded] = useState(false);
  // What had focus when the palette opened gets it back when the palette closes (WCAG 2.4.3).
  const returnTo = useRef<HTMLElement | null>(null);
  const open = () => {
    if (document.activeElement instanceof HTMLElement) returnTo.current = document.activeElement;
    setLoaded(true);
    setOpened(true);
  };
  const giveFocusBack = () => {
    if (returnTo.current?.isConnected) returnTo.current.focus();
    returnTo.current = null;
  };
  // Also from inside a text field: the shortcut is the palette's, not the field's.
  useHotkeys([['mod+K', open]], []);

  return (
    <>
      <Button
        variant="default"
        onClick={open}
        aria-label={t('layout.search')}
        aria-keyshortcuts={isMac ? 'Meta+K' : 'Control+K'}
        leftSection={<IconSearch size={16} aria-hidden="true" />}
        rightSection={
          <Kbd size="xs" aria-hidden="true" className={classes.searchKey}>
            {isMac ? '⌘K' : 'Ctrl K'}
          </Kbd>
        }
        className={classes.searchButton}
      >
        <span className={classes.searchLabel}>{t('layout.search')}</span>
      </Button>
      {loaded ? (
        <Suspense fallback={null}>
          <CommandPalette opened={opened} onClose={() => setOpened(false)} onClosed={giveFocusBack} projectId={projectId} />
        </Suspense>
      ) : null}
    </>
  );
}
