import { CloseButton, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '../../lib/i18n/react.tsx';
import classes from './list.module.css';
import '../texts.ts';

export interface ActiveFilter {
  key: string;
  /** The filter's name, as its input is labelled ("Name"). */
  label: string;
  /** Its value as the user reads it ("shop", "Yes"). */
  value: string;
}

interface FilterBarProps {
  /** The filter inputs. */
  children: ReactNode;
  active: readonly ActiveFilter[];
  onRemove: (key: string) => void;
}

/** spec §2 "List pages (common)": the filter inputs, and a removable tag per active filter. */
export function FilterBar({ children, active, onRemove }: FilterBarProps) {
  const { t } = useTranslation('ui');
  return (
    <div role="search" aria-label={t('list.filters')} className={classes.filterBar}>
      <Group gap="sm" align="flex-end" className={classes.filterInputs}>
        {children}
      </Group>
      {active.length > 0 ? (
        <ul aria-label={t('list.activeFilters')} className={classes.tags}>
          {active.map((filter) => (
            <li key={filter.key} className={classes.tag}>
              <span className={classes.tagText}>{t('list.filterTag', { label: filter.label, value: filter.value })}</span>
              <CloseButton
                size="sm"
                radius="xl"
                aria-label={t('list.removeFilter', { label: filter.label })}
                onClick={() => onRemove(filter.key)}
                className={classes.tagRemove}
              />
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
