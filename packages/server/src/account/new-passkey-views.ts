import { browserWarning, ceremonyAttributes, errorLine, PASSKEY_SCRIPTS } from '../oidc/pages/passkey-views.ts';
import { escapeHtml, signInPage, textsOf, type PageBrand } from '../oidc/pages/views.ts';
import { accountTextsOf, hidden, pathOf, type AccountLinks } from './account-views.ts';

/** Create another passkey: the browser's dialog, its answer posted back to the page. */
export function newPasskeyPage(
  links: AccountLinks,
  options: { csrf: string; optionsJson: string; localOptionsJson?: string; error?: string },
  brand: PageBrand,
): string {
  const t = accountTextsOf(brand);
  const s = textsOf(brand);
  const action = pathOf(links, 'passkeys', 'new');
  return signInPage(
    t.addPasskey,
    `<h1>${escapeHtml(t.addPasskey)}</h1>
<p>${escapeHtml(s.createPasskeyHint(brand.name))}</p>
<form method="post" action="${escapeHtml(action)}" ${ceremonyAttributes(brand, 'register', options.optionsJson, options.localOptionsJson)}>
${hidden('csrf', options.csrf)}<input type="hidden" name="response" value="">
${errorLine(options.error)}
<button class="primary" type="submit">${escapeHtml(t.addPasskey)}</button>
</form>
${browserWarning(brand)}<div class="links"><a href="${escapeHtml(links.base)}">${escapeHtml(t.backToAccount)}</a></div>`,
    brand,
    PASSKEY_SCRIPTS,
  );
}
