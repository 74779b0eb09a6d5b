import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import '../texts.ts';

interface YesNoFilterProps {
  label: string;
  /** The filter as the address holds it: 'true', 'false', or nothing. */
  value: string | undefined;
  onChange: (value: string) => void;
}

/** A list's yes/no filter (spec §2: enabled, active): Yes, No, or any once cleared. */
export function YesNoFilter({ label, value, onChange }: YesNoFilterProps) {
  const { t } = useTranslation('ui');
  return (
    <Select
      label={label}
      placeholder={t('list.any')}
      data={[
        { value: 'true', label: t('list.yes') },
        { value: 'false', label: t('list.no') },
      ]}
      value={value === 'true' || value === 'false' ? value : null}
      onChange={(next) => onChange(next ?? '')}
      clearable
      clearButtonProps={{ 'aria-label': t('list.clearFilter', { label }) }}
      allowDeselect
    />
  );
}

/** The words of a yes/no filter for its chip in the filter bar, or undefined when it filters nothing. */
export function useYesNoText(): (value: string | undefined) => string | undefined {
  const { t } = useTranslation('ui');
  return (value) => (value === 'true' ? t('list.yes') : value === 'false' ? t('list.no') : undefined);
}
