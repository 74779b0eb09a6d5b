import type { FastifyInstance } from 'fastify';
import { accountsApi } from '@latchkey/domain';
import { registerEndpoint } from '../../http/register-endpoint.ts';
import type { AccountsService } from './accounts.service.ts';

/** spec §7 "Accounts", issue 12. */
export function registerAccountRoutes(app: FastifyInstance, accounts: AccountsService): void {
  registerEndpoint(app, accountsApi.listAccounts, async ({ params, query }) => accounts.list(params.project, query));
  registerEndpoint(app, accountsApi.getProjectAccount, async ({ params }) => accounts.get(params.project, params.account));
  registerEndpoint(app, accountsApi.createAccount, async ({ params, body, actor }) => accounts.createStaff(actor(), params.project, body));
  registerEndpoint(app, accountsApi.updateAccount, async ({ params, body, actor, ifMatch }) =>
    accounts.update(actor(), params.project, params.account, body, ifMatch),
  );
  registerEndpoint(app, accountsApi.createServiceAccount, async ({ params, body, actor }) => accounts.createService(actor(), params.project, body));
  registerEndpoint(app, accountsApi.rotateServiceToken, async ({ params, body, actor }) =>
    accounts.rotateToken(actor(), params.project, params.account, body),
  );
  registerEndpoint(app, accountsApi.revokeServiceToken, async ({ params, actor }) => {
    await accounts.revokeToken(actor(), params.project, params.account);
    return { revoked: true as const };
  });
}
