import type { AuditEvent } from '@latchkey/domain';
import { Modal } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import classes from './audit.module.css';

interface AuditEventModalProps {
  /** The event shown (kept while the dialog closes). */
  event: AuditEvent | null;
  opened: boolean;
  onClose: () => void;
}

/** spec §2 "Audit list": the details modal shows the whole row as formatted JSON. */
export function AuditEventModal({ event, opened, onClose }: AuditEventModalProps) {
  const { t } = useTranslation('audit');
  const { t: tu } = useTranslation('ui');
  return (
    <Modal
      opened={opened && event !== null}
      onClose={onClose}
      title={t('details.title')}
      size="lg"
      centered
      closeButtonProps={{ 'aria-label': tu('actions.close') }}
    >
      {event ? (
        // Focusable: a keyboard can scroll a long event (WCAG 2.1.1).
        <pre className={classes.json} tabIndex={0} aria-label={t('details.title')}>
          {JSON.stringify(event, null, 2)}
        </pre>
      ) : null}
    </Modal>
  );
}
