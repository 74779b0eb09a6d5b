import type { ListFilter } from '@latchkey/domain';
import { Select, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from '../../lib/i18n/react.tsx';
import { useDeclaredListState, type DeclaredList } from '../../lib/list-state/declared-list.ts';
import { useFilterText } from '../../lib/list-state/use-filter-text.ts';
import type { ListStateControl } from '../../lib/list-state/use-list-state.ts';
import { DateRangeFilter } from './date-range-filter.tsx';
import type { ActiveFilter } from './filter-bar.tsx';
import '../texts.ts';

// A declared list's filter inputs and their chips (issue 21): from the domain's declaration of each
// filter (a text, a yes/no, one of some values; a ranged list's dates) and the page's words for it.

/** How a page shows one of its list's filters. */
export interface FilterField {
  label: string;
  /** A search icon in the field (the list's main text filter). */
  search?: boolean;
  placeholder?: string;
  maxLength?: number;
  /** A yes/no or one-of filter's choices with their words (default: Yes / No, or the values themselves). */
  options?: ReadonlyArray<{ value: string; label: string }>;
  /** A text filter's value as its chip says it (default: as typed). */
  chip?: (value: string) => string;
}

/**
 * A text filter: the field follows every keystroke, the list once typing pauses. A filter with a
 * parameter of its own (a country code) reaches the list only once its parameter takes it, as the
 * parameter gives it (upper-cased).
 */
function TextFilter({
  filter,
  field,
  value,
  onChange,
}: {
  filter: ListFilter;
  field: FilterField;
  value: string;
  onChange: (value: string) => void;
}) {
  const [draft, setDraft] = useFilterText(value, (next) => {
    if (filter.kind !== 'text' || !filter.param || next === '') return onChange(next);
    const parsed = filter.param.safeParse(next);
    if (parsed.success) onChange(parsed.data);
  });
  return (
    <TextInput
      label={field.label}
      placeholder={field.placeholder}
      maxLength={field.maxLength}
      autoComplete="off"
      leftSection={field.search ? <IconSearch size={16} aria-hidden="true" /> : undefined}
      value={draft}
      onChange={(event) => setDraft(event.currentTarget.value)}
    />
  );
}

/**
 * The inputs of the filters a page names in `fields` (in that order), a ranged list's From and To
 * after them, and a removable chip per filter in use.
 */
export function useDeclaredFilters(
  declared: DeclaredList,
  list: ListStateControl,
  fields: Readonly<Record<string, FilterField>>,
  month: { fromDate: string; toDate: string } | null,
): { inputs: ReactNode; active: ActiveFilter[] } {
  const { t } = useTranslation('ui');
  const { filters } = list.state;
  const yesNo = [
    { value: 'true', label: t('list.yes') },
    { value: 'false', label: t('list.no') },
  ];
  const optionsOf = (filter: ListFilter, field: FilterField) =>
    field.options ?? (filter.kind === 'yesNo' ? yesNo : filter.kind === 'oneOf' ? filter.values.map((value) => ({ value, label: value })) : []);

  const active: ActiveFilter[] = [];
  const inputs = Object.entries(fields).map(([key, field]) => {
    const filter = declared.filters[key];
    if (!filter) throw new Error(`The list declares no filter ${key}`);
    const value = filters[key] ?? '';
    if (filter.kind === 'text') {
      if (value) active.push({ key, label: field.label, value: field.chip ? field.chip(value) : value });
      return <TextFilter key={key} filter={filter} field={field} value={value} onChange={(next) => list.setFilter(key, next)} />;
    }
    const options = optionsOf(filter, field);
    const chosen = options.find((o) => o.value === value);
    if (chosen) active.push({ key, label: field.label, value: chosen.label });
    return (
      <Select
        key={key}
        label={field.label}
        placeholder={t('list.any')}
        data={options}
        value={chosen ? value : null}
        onChange={(next) => list.setFilter(key, next ?? '')}
        clearable
        clearButtonProps={{ 'aria-label': t('list.clearFilter', { label: field.label }) }}
        allowDeselect
      />
    );
  });
  return {
    inputs: (
      <>
        {inputs}
        {declared.ranged && month ? (
          <DateRangeFilter
            fromDate={filters['fromDate'] ?? ''}
            toDate={filters['toDate'] ?? ''}
            defaults={month}
            onChange={list.setFilter}
            {...(declared.range ? { rules: declared.range } : {})}
          />
        ) : null}
      </>
    ),
    active,
  };
}

/**
 * A declared list's state in the address (the filters the page names in `fields`, a ranged list's
 * dates) and its filter bar: what a list page needs besides its call and its columns.
 */
export function useDeclaredList(declared: DeclaredList, fields: Readonly<Record<string, FilterField>>) {
  const { list, month } = useDeclaredListState(declared, Object.keys(fields));
  return { list, filterBar: useDeclaredFilters(declared, list, fields, month) };
}
