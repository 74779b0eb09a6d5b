import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../lib/i18n/react.tsx';
import { Outlet, useLocation } from 'react-router';
import { CenteredLoader } from '../../components/centered-loader.tsx';
import { browser } from '../../lib/browser.ts';
import { accountLanguage, changeLanguage, currentLanguage } from '../../lib/i18n/index.ts';
import { accountQuery, startSignIn } from '../../lib/session.ts';

// Rarely needed (the sign-in service is down): not part of the first download.
const SignInUnavailable = lazy(() => import('./sign-in-unavailable.tsx'));

/**
 * spec §2 "Session entry": every path but the sign-in pages first loads the signed-in account,
 * with a loader meanwhile; if that fails the browser goes to the identity provider, to come back
 * to the same path.
 */
export function SessionGate() {
  const { t, i18n } = useTranslation();
  const account = useQuery(accountQuery);
  // issue 13: the account's language (or the browser's) before anything of the console shows; once
  // applied, a later choice (the top bar's menu) changes the language itself before the account.
  const language = account.data ? accountLanguage(account.data.language, browser.languages()) : null;
  const [applied, setApplied] = useState(false);
  const waitingForLanguage = language !== null && !applied && currentLanguage(i18n) !== language;
  const location = useLocation();
  const here = `${location.pathname}${location.search}${location.hash}`;
  const [signInError, setSignInError] = useState<unknown>(null);
  // One redirect per failure, even when StrictMode runs the effect twice.
  const redirecting = useRef(false);
  const needsSignIn = account.isError && !account.data && !account.isFetching;

  useEffect(() => {
    if (language === null) return;
    browser.storeLanguage(language);
    let live = true;
    const change = currentLanguage(i18n) === language ? Promise.resolve() : changeLanguage(language);
    // A language whose texts cannot be fetched leaves the console in the one it speaks.
    void change
      .catch(() => undefined)
      .finally(() => {
        if (live) setApplied(true);
      });
    return () => {
      live = false;
    };
  }, [language, i18n]);

  useEffect(() => {
    if (!needsSignIn || redirecting.current) return;
    redirecting.current = true;
    startSignIn(here).catch((error: unknown) => setSignInError(error));
  }, [needsSignIn, here]);

  if (signInError) {
    const retry = () => {
      redirecting.current = false;
      setSignInError(null);
      void account.refetch();
    };
    return (
      <Suspense fallback={null}>
        <SignInUnavailable onRetry={retry} />
      </Suspense>
    );
  }

  if (!account.data || waitingForLanguage) {
    return (
      <main>
        <CenteredLoader fullScreen label={t('common.loading')} />
      </main>
    );
  }

  return <Outlet />;
}
