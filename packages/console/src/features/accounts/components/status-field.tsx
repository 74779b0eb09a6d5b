import { Input, SegmentedControl } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from '../../../lib/i18n/react.tsx';

/** spec §2 "Account forms": status active/inactive. */
export function StatusField({ value, onChange, disabled = false }: { value: boolean; onChange: (active: boolean) => void; disabled?: boolean }) {
  const { t } = useTranslation('accounts');
  const id = useId();
  return (
    <Input.Wrapper label={t('form.status')} labelElement="div" labelProps={{ id }}>
      <div>
        <SegmentedControl
          mt={4}
          aria-labelledby={id}
          disabled={disabled}
          value={value ? 'active' : 'inactive'}
          onChange={(next) => onChange(next === 'active')}
          data={[
            { value: 'active', label: t('form.active') },
            { value: 'inactive', label: t('form.inactive') },
          ]}
        />
      </div>
    </Input.Wrapper>
  );
}
