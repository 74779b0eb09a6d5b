import type { ErrorOut } from 'oidc-provider';
import { errorPage, type PageBrand } from '../idp/views.ts';
import type { IssuerState } from './issuer-state.repository.ts';

/** A project's pages show its display name; the user id field carries its identityTypeLabel (spec §2). */
export function projectBrand(state: Pick<IssuerState, 'displayName' | 'identityTypeLabel'>): PageBrand {
  return { name: state.displayName, idLabel: state.identityTypeLabel || 'Email' };
}

export const START_AGAIN = 'Go back to the application and try again.';

/**
 * The provider's own error page. spec §2: a redirect URI not registered exactly is
 * INVALID_REQUEST_PARAMETERS for redirect_uri, shown here and never redirected to.
 */
export function projectErrorPage(state: IssuerState, out: ErrorOut): string {
  const brand = projectBrand(state);
  if (out.error === 'invalid_redirect_uri') {
    return errorPage('The application asked to return to an address it has not registered, so the sign-in stops here.', null, brand, {
      heading: 'This sign-in request is not valid',
      code: 'INVALID_REQUEST_PARAMETERS: redirect_uri',
    });
  }
  const reason = typeof out.error_description === 'string' ? out.error_description : String(out.error ?? 'Unknown error');
  return errorPage(`The sign-in service answered: ${reason}. ${START_AGAIN}`, null, brand, { code: String(out.error ?? 'auth_error') });
}

const REFUSALS = {
  disabled: { heading: 'This application is disabled', message: 'Its administrators have turned sign-in off for now. Try again later.' },
  closed: { heading: 'This project is closed', message: 'Nobody can sign in to its applications.' },
} as const;

/** spec §4: a disabled application or a closed project rejects end-user authentication. */
export function refusalPage(state: IssuerState, reason: keyof typeof REFUSALS): string {
  const { heading, message } = REFUSALS[reason];
  return errorPage(message, null, projectBrand(state), { heading });
}
