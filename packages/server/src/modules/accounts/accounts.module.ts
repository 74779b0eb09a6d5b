import { accountsApi } from '@latchkey/domain';
import { apiModule } from '../api-module.ts';
import { createAccountsService } from './accounts.service.ts';

/** spec §7 "Accounts", issue 12. */
export default apiModule(accountsApi, {
  services: ({ db, clock, audit, mailer, secretBox, config, warn }) =>
    createAccountsService({ db, clock, audit, mailer, secretBox, consoleUrl: config.publicUrl, warn }),
  endpoints: (accounts) => ({
    listAccounts: async ({ params, query }) => accounts.list(params.project, query),
    getProjectAccount: async ({ params }) => accounts.get(params.project, params.account),
    createAccount: async ({ params, body, actor }) => accounts.createStaff(actor(), params.project, body),
    updateAccount: async ({ params, body, actor, ifMatch }) => accounts.update(actor(), params.project, params.account, body, ifMatch),
    createServiceAccount: async ({ params, body, actor }) => accounts.createService(actor(), params.project, body),
    rotateServiceToken: async ({ params, body, actor }) => accounts.rotateToken(actor(), params.project, params.account, body),
    revokeServiceToken: async ({ params, actor }) => {
      await accounts.revokeToken(actor(), params.project, params.account);
      return { revoked: true as const };
    },
  }),
});
