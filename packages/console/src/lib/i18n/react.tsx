import type { FlatNamespace, TFunction } from 'i18next';
import { createContext, useCallback, useContext, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import type { Translator } from './runtime.ts';

// React's side of the translation runtime (runtime.ts): a provider and `useTranslation(namespace)`,
// whose `t` changes with the language so that everything built from it (memoised columns, labels)
// follows a change of language.

const TranslatorContext = createContext<Translator | null>(null);

export function TranslationProvider({ i18n, children }: { i18n: Translator; children: ReactNode }) {
  return <TranslatorContext.Provider value={i18n}>{children}</TranslatorContext.Provider>;
}

/** The provided translator's texts of `namespace` (default: the main catalogue), typed by its keys. */
export function useTranslation<const N extends FlatNamespace = 'translation'>(namespace?: N): { t: TFunction<N>; i18n: Translator } {
  const i18n = useContext(TranslatorContext);
  if (!i18n) throw new Error('useTranslation needs a TranslationProvider');
  const subscribe = useCallback(
    (changed: () => void) => {
      i18n.on('languageChanged', changed);
      return () => i18n.off('languageChanged', changed);
    },
    [i18n],
  );
  const language = useSyncExternalStore(subscribe, () => i18n.language);
  const ns = namespace ?? i18n.options.defaultNS;
  // A new function per language: what a component memoises on `t` is made again in the new language.
  const t = useMemo(() => i18n.fixedT(ns, language), [i18n, ns, language]) as unknown as TFunction<N>;
  return { t, i18n };
}
