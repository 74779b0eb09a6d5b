const LANGUAGE_KEY = 'latchkey.language';

/**
 * Full-page navigations (to the identity provider and back) and downloads. One seam, so tests can observe them:
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
  /** Hands a file to the browser's downloads (an export), as a link to it clicked. */
  save(blob: Blob, filename: string): void {
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = filename;
    document.body.append(link);
    link.click();
    link.remove();
    // The download has started from the object URL by now; a minute is ample before letting it go.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  },
  /** The browser's preferred languages, most wanted first (`fr-CA`, `en`). */
  languages(): readonly string[] {
    return navigator.languages.length > 0 ? navigator.languages : [navigator.language];
  },
  /**
   * This browser's note of the console language last in use (issue 13), so the next visit starts
   * in it before the account is loaded; null when none (or storage is off).
   */
  storedLanguage(): string | null {
    try {
      return window.localStorage.getItem(LANGUAGE_KEY);
    } catch {
      return null;
    }
  },
  storeLanguage(language: string): void {
    try {
      window.localStorage.setItem(LANGUAGE_KEY, language);
    } catch {
      // Storage off (private mode, policy): the next visit starts in the browser's language instead.
    }
  },
};
