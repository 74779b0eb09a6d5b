import {
  newProjectSettings,
  projectPermission,
  type Application,
  type ApplicationKeys,
  type ConsoleConfig,
  type Project,
  type ProjectSummary,
  type SessionAccount,
} from '@latchkey/domain';

// What the fake API answers, typed by the domain's read models: a change to a schema breaks these
// fixtures at typecheck instead of leaving the tests on a shape the server no longer sends.

export const ACCOUNT: SessionAccount = { id: 'acc-1', email: 'owner@example.com', permissions: [projectPermission('p1', '*')], language: null };

export function consoleConfig(overrides: Partial<ConsoleConfig> = {}): ConsoleConfig {
  return { docsUrl: '', supportUrl: '', registration: 'open', ...overrides };
}

/** A project as GET projects/{id} answers it: the settings of a new project. */
export function project(overrides: Partial<Project> = {}): Project {
  return { ...newProjectSettings(overrides.name ?? 'Acme'), id: 'p1', enabled: true, ...overrides };
}

/** A project as the account's project list answers it. */
export function projectSummary(overrides: Partial<ProjectSummary> = {}): ProjectSummary {
  return { id: 'p1', name: 'Acme', logoUrl: '', enabled: true, ...overrides };
}

/** An application; its links are relative to the API base, as the server answers them (RFC 3986). */
export function application(overrides: Partial<Application> = {}): Application {
  const id = overrides.id ?? 'a1';
  return {
    id,
    projectId: 'p1',
    name: 'Storefront',
    platformCode: 'oidc',
    // Its keys (below) return to a web address and an app's scheme: a native app.
    applicationType: 'native',
    enabled: true,
    logoUrl: '',
    keysEndpoint: `apps/${id}/keys`,
    generateNewKeysEndpoint: `apps/${id}/keys/generate`,
    ...overrides,
  };
}

export function applicationKeys(overrides: Partial<ApplicationKeys> = {}): ApplicationKeys {
  return {
    clientId: 'client-a1',
    clientSecret: '',
    redirectURI: ['https://shop.example.com/cb', 'com.example.shop:/cb'],
    postLogoutRedirectURI: [],
    backchannelLogoutURI: '',
    issuer: 'http://localhost:8080/p/p1',
    ...overrides,
  };
}
