import { applicationCreateFormSchema, redirectUrisOf, type ApplicationType } from '@latchkey/domain';
import { useState } from 'react';

// spec §5 "New app" and "App edit": the rules are the domain schemas' — name required, max 250
// (trimmed); each redirect URL required and a URI; at least one.
const nameRule = applicationCreateFormSchema.shape.name;

export interface RedirectRow {
  /** Stable across additions and removals (React key, touched state). */
  id: number;
  value: string;
  touched: boolean;
}

export interface AppFormCheck {
  /** Catalogue key of what is wrong with the name, if anything. */
  name: string | null;
  /** Per redirect row, the catalogue key of what is wrong with it. */
  redirects: (string | null)[];
  /** What is wrong with the list as a whole (none, too many). */
  redirectList: string | null;
  /** The trimmed values, when everything is valid. */
  valid: { name: string; redirectURI: string[] } | null;
  /** The trimmed name, when it is valid (whatever the redirect rows hold). */
  validName: string | null;
}

/** `type`: the application's; its redirect URIs follow its rules (a private-use scheme only for a native app). */
export function checkAppForm(name: string, redirects: readonly string[], type: ApplicationType): AppFormCheck {
  const nameResult = nameRule.safeParse(name);
  const listResult = redirectUrisOf(type).safeParse(redirects);
  const redirectErrors: (string | null)[] = redirects.map(() => null);
  let redirectList: string | null = null;
  if (!listResult.success) {
    for (const issue of listResult.error.issues) {
      const index = issue.path[0];
      if (typeof index === 'number') redirectErrors[index] ??= issue.message;
      else redirectList ??= issue.message;
    }
  }
  return {
    name: nameResult.success ? null : (nameResult.error.issues[0]?.message ?? 'validation.invalid_value'),
    redirects: redirectErrors,
    redirectList,
    valid: nameResult.success && listResult.success ? { name: nameResult.data, redirectURI: listResult.data } : null,
    validName: nameResult.success ? nameResult.data : null,
  };
}

/** The editable state of the application form: name and redirect rows, with what the user has touched. */
export function useAppForm(initial: { name: string; redirectURI: readonly string[]; applicationType: ApplicationType }) {
  const [name, setNameValue] = useState(initial.name);
  const [applicationType, setApplicationType] = useState<ApplicationType>(initial.applicationType);
  const [nameTouched, setNameTouched] = useState(false);
  const [rows, setRows] = useState<RedirectRow[]>(() =>
    (initial.redirectURI.length > 0 ? initial.redirectURI : ['']).map((value, id) => ({ id, value, touched: false })),
  );
  const [nextId, setNextId] = useState(Math.max(1, initial.redirectURI.length));
  const [added, setAdded] = useState<number | null>(null);

  const check = checkAppForm(
    name,
    rows.map((row) => row.value),
    applicationType,
  );

  return {
    name,
    nameTouched,
    rows,
    applicationType,
    /** Chosen at creation only (the settings page shows it). */
    setApplicationType,
    /** The row just added (its input takes the focus). */
    added,
    check,
    setName: (value: string) => {
      setNameValue(value);
      setNameTouched(true);
    },
    touchName: () => setNameTouched(true),
    setRedirect: (id: number, value: string) => setRows((current) => current.map((row) => (row.id === id ? { ...row, value, touched: true } : row))),
    touchRedirect: (id: number) => setRows((current) => current.map((row) => (row.id === id ? { ...row, touched: true } : row))),
    addRedirect: () => {
      setRows((current) => [...current, { id: nextId, value: '', touched: false }]);
      setAdded(nextId);
      setNextId((id) => id + 1);
    },
    removeRedirect: (id: number) => setRows((current) => (current.length > 1 ? current.filter((row) => row.id !== id) : current)),
    /** A submission shows every message, touched or not. */
    touchAll: () => {
      setNameTouched(true);
      setRows((current) => current.map((row) => ({ ...row, touched: true })));
    },
  };
}

export type AppForm = ReturnType<typeof useAppForm>;
