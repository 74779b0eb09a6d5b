import { applyFormRules, projectSettingsSchema, type Project, type ProjectSettings } from '@latchkey/domain';
import { useMemo, useState } from 'react';

/** A project's editable document: the project less its id and `enabled` (which only /meta changes). */
export function settingsOf(project: Project): ProjectSettings {
  const { id: _id, enabled: _enabled, ...settings } = project;
  return settings;
}

/**
 * The state of a settings form: the whole document as edited, with spec §4's rules applied at each
 * change (applyFormRules: the same functions the server applies), checked against the domain's
 * schema (spec §5 messages). A field's issue shows once it has been changed or a save was tried.
 */
export function useSettingsDraft(project: Project) {
  const [value, setValue] = useState<ProjectSettings>(() => settingsOf(project));
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [allTouched, setAllTouched] = useState(false);

  const checked = useMemo(() => projectSettingsSchema.safeParse(value), [value]);
  const issues = useMemo(() => {
    const found = new Map<string, string>();
    if (!checked.success)
      for (const issue of checked.error.issues) if (!found.has(issue.path.join('.'))) found.set(issue.path.join('.'), issue.message);
    return found;
  }, [checked]);

  return {
    value,
    /** The document as it will be saved (trimmed), or null while a field is invalid. */
    valid: checked.success ? checked.data : null,
    /**
     * Changes the document at `path` (the field the user touched; several when the change makes
     * another field's message matter) and applies spec §4's rules.
     */
    set(path: string | readonly string[], change: (current: ProjectSettings) => ProjectSettings) {
      setValue((current) => applyFormRules(change(current)));
      setTouched((current) => new Set([...current, ...(typeof path === 'string' ? [path] : path)]));
    },
    /** The message key of what is wrong at `path` (or below it), once it is shown. */
    issue(path: string): string | null {
      if (!allTouched && !touched.has(path)) return null;
      return issues.get(path) ?? null;
    },
    /** Whether anything at all at `path` or below is wrong (shown or not). */
    hasIssue: (path: string) => [...issues.keys()].some((p) => p === path || p.startsWith(`${path}.`)),
    /** A save was tried: every message shows. */
    touchAll: () => setAllTouched(true),
  };
}

export type SettingsDraft = ReturnType<typeof useSettingsDraft>;
