/**
 * Full-page navigations (to the identity provider and back). One seam, so tests can observe them:
 * jsdom's `window.location.assign` cannot be replaced.
 */
export const browser = {
  assign(url: string): void {
    window.location.assign(url);
  },
  origin(): string {
    return window.location.origin;
  },
  /** Path, query and fragment of the current address: where to come back to after sign-in. */
  currentPath(): string {
    const { pathname, search, hash } = window.location;
    return `${pathname}${search}${hash}`;
  },
};
