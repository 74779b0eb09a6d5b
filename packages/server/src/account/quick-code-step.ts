import type { FastifyInstance } from 'fastify';
import { mayIssueQuickCodes, newQuickCode, QUICK_CODE_TTL_MS } from '../oidc/passkeys.ts';
import type { AccountFlow } from './account-flow.ts';
import { html, notFoundPage } from './account-site.ts';
import { accountQuickCodePage } from './quick-code-views.ts';

/** A QuickCode for another device (docs/decisions/0017), issued by the passkey this session began with. */
export function registerQuickCodeStep(pages: FastifyInstance, flow: AccountFlow, page: string): void {
  flow.change(
    pages,
    `${page}/quickcode`,
    async (site, signed, request, reply) => {
      const { projectId, quickCodes } = site.state;
      if (!quickCodes.enabled || signed.user.email === null) throw notFoundPage(site.brand);
      if (await flow.tooManyChanges(site, signed)) return flow.tooManyPage(site, reply);
      const { current } = await flow.passkeysOf(site, signed);
      const events = flow.deps.eventsOf(projectId);
      const minutes = QUICK_CODE_TTL_MS / 60_000;
      // docs/decisions/0017: a QuickCode is issued by a passkey (the one this session began with), not
      // by one itself registered with a QuickCode when the project limits them to verified identities.
      if (!current || !mayIssueQuickCodes(current.registeredWith, quickCodes.verifiedOnly)) {
        await events.refusal(flow.originOf(request), {
          scope: 'reg-code',
          status: 'denied',
          action: 'reg_code.issued',
          userId: signed.user.identity,
          deviceName: current?.name ?? null,
          details: { reason: current ? 'verified_only' : 'no_passkey' },
        });
        return html(reply, 403, accountQuickCodePage(site.links, { code: null, minutes }, site.brand));
      }
      const code = newQuickCode();
      await flow.changes.issueQuickCode(flow.actorOf(site, signed, request), current, code);
      return html(reply, 200, accountQuickCodePage(site.links, { code, minutes }, site.brand));
    },
    { fresh: true },
  );
}
