import type { FastifyInstance } from 'fastify';
import { escapeHtml, signInPage, type PageBrand } from '../oidc/pages/views.ts';
import type { AccountFlow } from './account-flow.ts';
import { html } from './account-site.ts';
import { accountTextsOf, type AccountLinks } from './account-views.ts';
import { recoveryTextsOf, shownRecoveryCode } from '../oidc/recovery-codes.ts';

/**
 * Recovery codes (issue 37, docs/decisions/0051): a new set, replacing the old, shown once with a
 * download of them as a text file (a data: link: the server keeps only their keyed hashes, so the
 * file is made of what this page shows and never asked for again). A new set is a way into the
 * account: it needs a fresh sign-in, as a new passkey does.
 */
function recoveryCodesPage(links: AccountLinks, codes: string[], identity: string, brand: PageBrand): string {
  const r = recoveryTextsOf(brand);
  const shown = codes.map(shownRecoveryCode);
  const file = `${brand.name} — ${r.codesHeading} — ${identity}\n\n${shown.join('\n')}\n`;
  return signInPage(
    r.codesShownHeading,
    `<h1>${escapeHtml(r.codesShownHeading)}</h1>
<p>${escapeHtml(r.codesShownText)}</p>
<ol class="recovery-codes" aria-label="${escapeHtml(r.codesHeading)}">
${shown.map((c) => `<li><code>${escapeHtml(c)}</code></li>`).join('\n')}
</ol>
<p><a class="button primary" download="${escapeHtml(`${brand.name}-recovery-codes.txt`)}" href="data:text/plain;charset=utf-8,${encodeURIComponent(file)}">${escapeHtml(r.download)}</a></p>
<div class="links"><a href="${escapeHtml(links.base)}">${escapeHtml(accountTextsOf(brand).backToAccount)}</a></div>`,
    brand,
  );
}

export function registerRecoveryCodesStep(pages: FastifyInstance, flow: AccountFlow, page: string): void {
  // The codes were shown once: the page reloaded (or opened again) is the account page, which says how many are left.
  flow.show(pages, `${page}/recovery-codes`, async (site, _signed, _request, reply) => reply.redirect(site.links.base, 303));
  flow.change(
    pages,
    `${page}/recovery-codes`,
    async (site, signed, request, reply) => {
      if (await flow.tooManyChanges(site, signed)) return flow.tooManyPage(site, reply);
      const codes = await flow.recovery.createCodes(flow.personOf(site, signed), flow.originOf(request));
      return html(reply, 200, recoveryCodesPage(site.links, codes, signed.user.identity, site.brand));
    },
    { fresh: true },
  );
}
