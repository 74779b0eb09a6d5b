import { quickCodeShown } from '../oidc/pages/passkey-views.ts';
import { escapeHtml, type PageBrand } from '../oidc/pages/views.ts';
import { accountTextsOf, type AccountLinks } from './account-views.ts';

/** A QuickCode for another device, or why none (a passkey registered with a QuickCode, limitRegCodeVerified). */
export function accountQuickCodePage(links: AccountLinks, options: { code: string | null; minutes: number }, brand: PageBrand): string {
  const t = accountTextsOf(brand);
  const next = `<div class="links"><a href="${escapeHtml(links.base)}">${escapeHtml(t.backToAccount)}</a></div>`;
  return quickCodeShown({ ...options, refused: t.quickCodeNotFromThisPasskey, next }, brand);
}
