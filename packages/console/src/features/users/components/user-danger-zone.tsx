import type { EndUser } from '@latchkey/domain';
import { useNavigate } from 'react-router';
import { DangerZoneActions } from '../../../components/danger-zone.tsx';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { notifyRawError, notifySuccess } from '../../../lib/notify.ts';
import { routes } from '../../../lib/routes.ts';
import { useDeleteUser } from '../api/use-delete-user.ts';
import { useSetUserBlocked } from '../api/use-set-user-blocked.ts';
import '../texts.ts';

/** Issue 24: block or unblock, and delete (erasure) — a list of confirm actions; failures show the server's message. */
export function UserDangerZone({ projectId, user }: { projectId: string; user: EndUser }) {
  const { t } = useTranslation('users');
  const navigate = useNavigate();
  const setBlocked = useSetUserBlocked(projectId, user.id);
  const erase = useDeleteUser(projectId, user.id);
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
            setBlocked
              .mutateAsync(!blocked)
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
              .mutateAsync()
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
