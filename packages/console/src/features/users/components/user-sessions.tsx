import { ACCOUNT_CLIENT_ID, type EndUser, type EndUserSession } from '@latchkey/domain';
import { Button } from '@mantine/core';
import { useMemo, useState } from 'react';
import { ConfirmModal } from '../../../components/confirm-modal.tsx';
import type { Column } from '../../../components/list/data-table.tsx';
import { StaticTable } from '../../../components/list/static-table.tsx';
import { UtcTime } from '../../../components/utc-time.tsx';
import { formatUtcDateTime } from '../../../lib/format-date.ts';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { notifyRawError, notifySuccess } from '../../../lib/notify.ts';
import { api } from '../../../lib/api/index.ts';
import { useApiMutation } from '../../../lib/use-api.ts';
import classes from './users.module.css';

/** A session's applications by name (their client id on hover); one no longer in the project by its client id. */
function SessionApplications({ applications }: { applications: EndUserSession['applications'] }) {
  const { t } = useTranslation('users');
  return applications.map((a, i) => (
    <span key={a.clientId}>
      {i > 0 ? ', ' : ''}
      {a.clientId === ACCOUNT_CLIENT_ID ? (
        t('detail.accountPage')
      ) : a.name !== null ? (
        <span title={a.clientId}>{a.name}</span>
      ) : (
        <span className={classes.mono}>{a.clientId}</span>
      )}
    </span>
  ));
}

/** The user's open sessions at the issuer: sign one out, or every one behind a confirm. */
export function UserSessions({
  projectId,
  user,
  sessions,
  canChange,
}: {
  projectId: string;
  user: EndUser;
  sessions: EndUserSession[];
  canChange: boolean;
}) {
  const { t } = useTranslation('users');
  // POST …/users/{user}/sessions/{session}/end, or …/sessions/end for every one of theirs; their page
  // and the audit log are read again, failed or not.
  const endOne = useApiMutation(api.endEndUserSession, { invalidates: [api.getEndUser, api.listAuditEvents] });
  const endAll = useApiMutation(api.endEndUserSessions, { invalidates: [api.getEndUser, api.listAuditEvents] });
  const [askingAll, setAskingAll] = useState(false);
  const endedAll = (answer: { ended: number }) => notifySuccess(t('actions.signedOut', { count: answer.ended }));
  const columns = useMemo<Column<EndUserSession>[]>(() => {
    const ended = (answer: { ended: number }) => notifySuccess(t('actions.signedOut', { count: answer.ended }));
    const all: Column<EndUserSession>[] = [
      { key: 'startedAt', header: t('detail.sessionStarted'), shrink: true, render: (s) => (s.startedAt ? <UtcTime iso={s.startedAt} /> : '—') },
      { key: 'with', header: t('detail.sessionWith'), render: (s) => s.deviceName ?? t('detail.sessionCode') },
      {
        key: 'apps',
        header: t('detail.sessionApps'),
        hiddenOnPhone: true,
        render: (s) => <SessionApplications applications={s.applications} />,
      },
      {
        key: 'expiresAt',
        header: t('detail.sessionExpires'),
        shrink: true,
        hiddenOnPhone: true,
        render: (s) => (s.expiresAt ? <UtcTime iso={s.expiresAt} /> : '—'),
      },
    ];
    if (!canChange) return all;
    return [
      ...all,
      {
        key: 'end',
        header: t('detail.endSession'),
        hiddenHeader: true,
        shrink: true,
        align: 'right',
        render: (s) => (
          <Button
            variant="subtle"
            size="compact-sm"
            aria-label={t('detail.endSessionOf', { started: s.startedAt ? formatUtcDateTime(s.startedAt) : '—' })}
            loading={endOne.isPending && endOne.variables?.params.session === s.id}
            onClick={() =>
              endOne.mutate({ params: { project: projectId, user: user.id, session: s.id } }, { onSuccess: ended, onError: notifyRawError })
            }
          >
            {t('detail.endSession')}
          </Button>
        ),
      },
    ];
  }, [t, canChange, endOne, projectId, user.id]);
  return (
    <>
      <StaticTable label={t('detail.sessions')} columns={columns} rows={sessions} rowKey={(s) => s.id} empty={t('detail.sessionsNone')} />
      {canChange && sessions.length > 0 ? (
        <div>
          <Button variant="default" onClick={() => setAskingAll(true)}>
            {t('detail.endAll')}
          </Button>
        </div>
      ) : null}
      <ConfirmModal
        opened={askingAll}
        title={t('actions.endAllConfirmTitle')}
        message={t('actions.endAllConfirmText', { user: user.identity })}
        confirmLabel={t('detail.endAll')}
        loading={endAll.isPending}
        onConfirm={() =>
          endAll.mutate(
            { params: { project: projectId, user: user.id } },
            { onSuccess: endedAll, onError: notifyRawError, onSettled: () => setAskingAll(false) },
          )
        }
        onCancel={() => setAskingAll(false)}
      />
    </>
  );
}
