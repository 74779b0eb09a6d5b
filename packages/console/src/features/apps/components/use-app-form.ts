import { applicationCreateFormSchema, backchannelLogoutUriOf, redirectUrisOf, type ApplicationType } from '@latchkey/domain';
import { useState } from 'react';

// spec §5 "New app" and "App edit": the rules are the domain schemas' — name required, max 250
// (trimmed); each redirect URL required and a URI; at least one. Issue 22: post-logout redirect URLs
// follow the same rules, none or more; both follow the application's type, as does the optional
// back-channel logout URL.
const nameRule = applicationCreateFormSchema.shape.name;

export interface UriRow {
  /** Stable across additions and removals (React key, touched state). */
  id: number;
  value: string;
  touched: boolean;
}

/** What is wrong with one list of URIs: per row, and with the list as a whole (none, too many). */
export interface UriListCheck {
  rows: (string | null)[];
  list: string | null;
  /** The trimmed values, when the list is valid. */
  valid: string[] | null;
}

export interface AppFormCheck {
  /** Catalogue key of what is wrong with the name, if anything. */
  name: string | null;
  redirects: UriListCheck;
  postLogout: UriListCheck;
  /** Catalogue key of what is wrong with the back-channel logout URL, if anything. */
  backchannel: string | null;
  /** The trimmed values, when everything is valid. */
  valid: { name: string; redirectURI: string[]; postLogoutRedirectURI: string[]; backchannelLogoutURI: string } | null;
  /** The trimmed name, when it is valid (whatever the URI rows hold). */
  validName: string | null;
}

function checkUris(values: readonly string[], type: ApplicationType, min: number): UriListCheck {
  const result = redirectUrisOf(type, min).safeParse(values);
  const rows: (string | null)[] = values.map(() => null);
  let list: string | null = null;
  if (!result.success) {
    for (const issue of result.error.issues) {
      const index = issue.path[0];
      if (typeof index === 'number') rows[index] ??= issue.message;
      else list ??= issue.message;
    }
  }
  return { rows, list, valid: result.success ? result.data : null };
}

/** `type`: the application's; its URIs follow its rules (a private-use scheme only for a native app). */
export function checkAppForm(
  name: string,
  redirects: readonly string[],
  type: ApplicationType,
  postLogout: readonly string[] = [],
  backchannel = '',
): AppFormCheck {
  const nameResult = nameRule.safeParse(name);
  const redirectCheck = checkUris(redirects, type, 1);
  const postLogoutCheck = checkUris(postLogout, type, 0);
  const backchannelResult = backchannelLogoutUriOf(type).safeParse(backchannel);
  const valid =
    nameResult.success && redirectCheck.valid && postLogoutCheck.valid && backchannelResult.success
      ? {
          name: nameResult.data,
          redirectURI: redirectCheck.valid,
          postLogoutRedirectURI: postLogoutCheck.valid,
          backchannelLogoutURI: backchannelResult.data,
        }
      : null;
  return {
    name: nameResult.success ? null : (nameResult.error.issues[0]?.message ?? 'validation.invalid_value'),
    redirects: redirectCheck,
    postLogout: postLogoutCheck,
    backchannel: backchannelResult.success ? null : (backchannelResult.error.issues[0]?.message ?? 'validation.invalid_url'),
    valid,
    validName: nameResult.success ? nameResult.data : null,
  };
}

/** One editable list of URIs: its rows, the one just added (its input takes the focus), and its edits. */
function useUriRows(initial: readonly string[], min: number) {
  const [rows, setRows] = useState<UriRow[]>(() =>
    (initial.length > 0 || min === 0 ? initial : ['']).map((value, id) => ({ id, value, touched: false })),
  );
  const [nextId, setNextId] = useState(Math.max(1, initial.length));
  const [added, setAdded] = useState<number | null>(null);
  return {
    rows,
    added,
    /** How many rows stay (the last of a required list cannot be removed). */
    min,
    set: (id: number, value: string) => setRows((current) => current.map((row) => (row.id === id ? { ...row, value, touched: true } : row))),
    touch: (id: number) => setRows((current) => current.map((row) => (row.id === id ? { ...row, touched: true } : row))),
    add: () => {
      setRows((current) => [...current, { id: nextId, value: '', touched: false }]);
      setAdded(nextId);
      setNextId((id) => id + 1);
    },
    remove: (id: number) => setRows((current) => (current.length > min ? current.filter((row) => row.id !== id) : current)),
    touchAll: () => setRows((current) => current.map((row) => ({ ...row, touched: true }))),
  };
}

export type UriRows = ReturnType<typeof useUriRows>;

/** The editable state of the application form: name, type and URI lists, with what the user has touched. */
export function useAppForm(initial: {
  name: string;
  redirectURI: readonly string[];
  postLogoutRedirectURI?: readonly string[];
  backchannelLogoutURI?: string;
  applicationType: ApplicationType;
}) {
  const [name, setNameValue] = useState(initial.name);
  const [backchannel, setBackchannelValue] = useState(initial.backchannelLogoutURI ?? '');
  const [backchannelTouched, setBackchannelTouched] = useState(false);
  const [applicationType, setApplicationType] = useState<ApplicationType>(initial.applicationType);
  const [nameTouched, setNameTouched] = useState(false);
  const redirects = useUriRows(initial.redirectURI, 1);
  const postLogout = useUriRows(initial.postLogoutRedirectURI ?? [], 0);

  const check = checkAppForm(
    name,
    redirects.rows.map((row) => row.value),
    applicationType,
    postLogout.rows.map((row) => row.value),
    backchannel,
  );

  return {
    name,
    nameTouched,
    applicationType,
    /** Chosen at creation only (the settings page shows it). */
    setApplicationType,
    redirects,
    postLogout,
    /** The back-channel logout URL ('' none) and whether the user has touched it. */
    backchannel,
    backchannelTouched,
    setBackchannel: (value: string) => {
      setBackchannelValue(value);
      setBackchannelTouched(true);
    },
    touchBackchannel: () => setBackchannelTouched(true),
    check,
    setName: (value: string) => {
      setNameValue(value);
      setNameTouched(true);
    },
    touchName: () => setNameTouched(true),
    /** A submission shows every message, touched or not. */
    touchAll: () => {
      setNameTouched(true);
      setBackchannelTouched(true);
      redirects.touchAll();
      postLogout.touchAll();
    },
  };
}

export type AppForm = ReturnType<typeof useAppForm>;
