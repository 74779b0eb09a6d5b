/** Who is calling: the signed-in account and what it holds (spec §3 "Signed-in account"). */
export interface Actor {
  accountId: string;
  email: string | null;
  permissions: string[];
  /** How the call was authenticated: a console cookie session, or a service account's bearer token. */
  via: 'session' | 'bearer';
}
