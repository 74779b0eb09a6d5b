import { createContext, useContext, useEffect } from 'react';

/**
 * The name of what the current page shows (an application's name on its settings page): the layout
 * shows it as the last breadcrumb and in the document title. Pages set it with `usePageLabel`.
 */
export const PageLabelContext = createContext<(label: string | null) => void>(() => undefined);

/** Names the current page's subject while the page is shown (undefined: not known yet). */
export function usePageLabel(label: string | undefined): void {
  const setLabel = useContext(PageLabelContext);
  useEffect(() => {
    if (label === undefined) return undefined;
    setLabel(label);
    return () => setLabel(null);
  }, [label, setLabel]);
}
