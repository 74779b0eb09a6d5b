import type { EndUser } from '@latchkey/domain';
import { useNavigate } from 'react-router';
import { DangerZoneActions } from '../../../components/danger-zone.tsx';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { notifyRawError, notifySuccess } from '../../../lib/notify.ts';
import { routes } from '../../../lib/routes.ts';
import { api } from '../../../lib/api/index.ts';
import { useApiMutation } from '../../../lib/use-api.ts';

/** Issue 24: block or unblock, and delete (erasure) — a list of confirm actions; failures show the server's message. */
export function UserDangerZone({ projectId, user }: { projectId: string; user: EndUser }) {
  const { t } = useTranslation('users');
  const navigate = useNavigate();
  // The users' reads (their page under them) and the audit log, which now holds the change, are read
  // again; blocking ends their sessions. Erasure (docs/decisions/0038) also drops their page's reads.
  const invalidates = [api.listEndUsers, api.listAuditEvents];
  const block = useApiMutation(api.blockEndUser, { invalidates });
  const unblock = useApiMutation(api.unblockEndUser, { invalidates });
  const erase = useApiMutation(api.deleteEndUser, { invalidates });
  const params = { project: projectId, user: user.id };
  const blocked = user.status === 'blocked';
  const toggle = blocked ? 'unblock' : 'block';
  const who = { user: user.identity };
  return (
    <DangerZoneActions
      actions={[
        {
          key: toggle,
          title: t(`actions.${toggle}Title`),
          description: t(`actions.${toggle}Text`),
          button: t(`actions.${toggle}`),
          safe: blocked,
          question: { title: t(`actions.${toggle}ConfirmTitle`), message: t(`actions.${toggle}ConfirmText`, who), confirm: t(`actions.${toggle}`) },
          run: () =>
            (blocked ? unblock : block)
              .mutateAsync({ params })
              .then(() => notifySuccess(t(blocked ? 'actions.unblocked' : 'actions.blocked', who)))
              .catch(notifyRawError),
        },
        {
          key: 'delete',
          title: t('actions.deleteTitle'),
          description: t('actions.deleteText'),
          button: t('actions.delete'),
          question: { title: t('actions.deleteConfirmTitle'), message: t('actions.deleteConfirmText', who), confirm: t('actions.delete') },
          run: () =>
            erase
              .mutateAsync({ params })
              .then(() => {
                notifySuccess(t('actions.deleted', who));
                void navigate(routes.projectUsers(projectId));
              })
              .catch(notifyRawError),
        },
      ]}
    />
  );
}
