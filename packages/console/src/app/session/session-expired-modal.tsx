import { lazy, Suspense, useEffect, useState } from 'react';
import { onSessionExpired } from '../../lib/api/index.ts';

// The dialog's code loads only when a session actually expires.
const SessionExpiredDialog = lazy(() => import('./session-expired-dialog.tsx'));

/** spec §4 "Session": a 401 on an API call raises the session-expired event, which opens the blocking modal. */
export function SessionExpiredModal() {
  const [expired, setExpired] = useState(false);
  useEffect(() => onSessionExpired(() => setExpired(true)), []);
  if (!expired) return null;
  return (
    <Suspense fallback={null}>
      <SessionExpiredDialog />
    </Suspense>
  );
}
