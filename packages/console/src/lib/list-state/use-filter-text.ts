import { useEffect, useState } from 'react';

/** How long typing in a text filter must pause before the list follows it. */
export const FILTER_TYPING_DEBOUNCE_MS = 300;

/**
 * A text filter's input: the field follows every keystroke at once, the list state (and so the
 * URL hash and history) only once typing pauses — one history entry per search, not per letter.
 * When the list state changes from elsewhere (back button, a removed filter tag), the field follows it.
 */
export function useFilterText(
  value: string,
  commit: (value: string) => void,
  delay = FILTER_TYPING_DEBOUNCE_MS,
): [draft: string, setDraft: (next: string) => void] {
  const [draft, setDraft] = useState(value);
  const [seen, setSeen] = useState(value);
  // What this field itself committed last, until the list state shows it: a keystroke made while
  // that navigation is under way must not be overwritten by it.
  const [own, setOwn] = useState<string | null>(null);
  if (seen !== value) {
    // Adjusting state during render (not in an effect): the field never shows a stale value.
    setSeen(value);
    if (value === own) setOwn(null);
    else setDraft(value);
  }

  const wanted = draft.trim();
  useEffect(() => {
    if (wanted === value) return undefined;
    const timer = setTimeout(() => {
      setOwn(wanted);
      commit(wanted);
    }, delay);
    return () => clearTimeout(timer);
  }, [wanted, value, commit, delay]);

  return [draft, setDraft];
}
