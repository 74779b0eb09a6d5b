import { Button, Collapse, Group, Table } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconTable } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import classes from './dashboard.module.css';

interface DataTableToggleProps {
  /** The table's accessible name. */
  label: string;
  /** Said on the left of the button (e.g. what a click on the chart does). */
  note?: ReactNode;
  /** The table's head and body rows. */
  children: ReactNode;
}

/**
 * Under a chart or the map: "Show the data as a table" opens the same numbers as a table (issue 10:
 * for a screen reader, and for reading exact numbers), scrolling sideways on a phone.
 */
export function DataTableToggle({ label, note, children }: DataTableToggleProps) {
  const { t } = useTranslation('dashboard');
  const [shown, table] = useDisclosure(false);
  return (
    <>
      <Group justify={note ? 'space-between' : 'flex-end'} gap="sm" mt="xs">
        {note}
        <Button variant="default" size="xs" leftSection={<IconTable size={14} aria-hidden="true" />} onClick={table.toggle} aria-expanded={shown}>
          {shown ? t('table.hide') : t('table.show')}
        </Button>
      </Group>
      <Collapse expanded={shown}>
        <div className={classes.tableScroll}>
          <Table striped withTableBorder aria-label={label} className={classes.dataTable}>
            {children}
          </Table>
        </div>
      </Collapse>
    </>
  );
}
