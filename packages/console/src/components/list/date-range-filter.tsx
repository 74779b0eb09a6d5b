import { isDateParam, LIST_RANGE, resolveRange, type RangeRules, type ValidationMessageKey } from '@latchkey/domain';
import { TextInput } from '@mantine/core';
import { useCallback, useState } from 'react';
import { useTranslation } from '../../lib/i18n/react.tsx';
import { validationKey } from '../../lib/i18n/validation.ts';
import { useFilterText } from '../../lib/list-state/use-filter-text.ts';
import '../texts.ts';

type DateKey = 'fromDate' | 'toDate';

interface DateRangeFilterProps {
  /** The list state's dates (`YYYY-MM-DD`); empty: none. */
  fromDate: string;
  toDate: string;
  /** What an emptied field goes back to (spec §9: the current month; empty: no bound, a list over every time). */
  defaults: { fromDate: string; toDate: string };
  onChange: (key: DateKey, value: string) => void;
  /** The ranges the API answers (default: a list's, at most 366 days). */
  rules?: RangeRules;
}

/**
 * From and To of a list bounded in time (devices, audit log). A date reaches the list once typing
 * pauses and only when the range it makes is one the API answers (the domain's rule: an end not
 * before the start, at most 366 days); otherwise the field says why and the list stays as it was.
 * An emptied field goes back to its default.
 */
export function DateRangeFilter({ fromDate, toDate, defaults, onChange, rules = LIST_RANGE }: DateRangeFilterProps) {
  const { t } = useTranslation('ui');
  return (
    <>
      <DateField
        label={t('list.fromDate')}
        name="fromDate"
        value={fromDate}
        other={toDate}
        fallback={defaults.fromDate}
        onChange={onChange}
        rules={rules}
      />
      <DateField
        label={t('list.toDate')}
        name="toDate"
        value={toDate}
        other={fromDate}
        fallback={defaults.toDate}
        onChange={onChange}
        rules={rules}
      />
    </>
  );
}

interface DateFieldProps {
  label: string;
  name: DateKey;
  value: string;
  /** The other end of the range, as the list has it. */
  other: string;
  fallback: string;
  onChange: (key: DateKey, value: string) => void;
  rules: RangeRules;
}

function DateField({ label, name, value, other, fallback, onChange, rules }: DateFieldProps) {
  const { t } = useTranslation();
  const [error, setError] = useState<ValidationMessageKey | null>(null);
  const commit = useCallback(
    (next: string) => {
      const day = next === '' ? fallback : next;
      // A list over every time has no default day: an emptied field is no bound.
      const issue = day === '' ? null : rangeIssue(name, day, other, rules);
      setError(issue);
      if (!issue) onChange(name, day);
    },
    [name, other, fallback, onChange, rules],
  );
  const [draft, setDraft] = useFilterText(value, commit);
  return (
    <TextInput
      type="date"
      label={label}
      value={draft}
      error={error ? t(error) : null}
      onChange={(event) => {
        setError(null);
        setDraft(event.currentTarget.value);
      }}
    />
  );
}

/** Why the API would refuse the range this day makes (the message's key), or null. */
function rangeIssue(name: DateKey, day: string, other: string, rules: RangeRules): ValidationMessageKey | null {
  // A day alone (what a date field gives); a year below 1000 is a year still being typed.
  if (day.length !== 10 || !isDateParam(day) || day < '1000') return 'validation.invalid_date';
  const otherDay = other && isDateParam(other) ? other : undefined;
  const range = name === 'fromDate' ? { fromDate: day, toDate: otherDay } : { fromDate: otherDay, toDate: day };
  const found = resolveRange(range, new Date(), rules);
  return Array.isArray(found) ? validationKey(found[0]?.code ?? '') : null;
}
