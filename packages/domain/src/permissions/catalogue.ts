// spec §6: the permission catalogue and its labels.
export const PROJECT_SCOPES = ['info', 'apps', 'accounts', 'audit', 'revocation', 'usage'] as const;
export type ProjectScope = (typeof PROJECT_SCOPES)[number];

export const GLOBAL_SCOPES = ['accounts', 'apps', 'projects', 'usage'] as const;
export type GlobalScope = (typeof GLOBAL_SCOPES)[number];

export const projectScopeLabels: Record<ProjectScope | '*', string> = {
  '*': 'select all',
  info: 'View Project Info',
  apps: 'Manage Apps',
  accounts: 'Manage Accounts',
  audit: 'View Audit Log',
  revocation: 'Manage Device Revocation',
  usage: 'View Usage',
};

export const globalScopeLabels: Record<GlobalScope | '*', string> = {
  '*': 'select all',
  accounts: 'Manage Global Accounts',
  apps: 'Manage All Applications',
  projects: 'Manage All Projects',
  usage: 'View Global Usage',
};

export const projectPermission = (projectId: string, scope: ProjectScope | '*' | '?' | string) => `cst:${projectId}:${scope}`;
export const globalPermission = (scope: GlobalScope | '*' | '?') => `glb::${scope}`;

/** The project id a permission string is about, or null for global ones. */
export function projectOfPermission(permission: string): string | null {
  const [kind, project] = permission.split(':');
  return kind === 'cst' && project ? project : null;
}

const PROJECT_SCOPE_SET = new Set<string>([...PROJECT_SCOPES, '*']);
const GLOBAL_SCOPE_SET = new Set<string>([...GLOBAL_SCOPES, '*']);

/** A permission an account may be granted: `glb::{scope}` or `cst:{project}:{scope}` from the catalogue. */
export function isGrantablePermission(permission: string): boolean {
  const parts = permission.split(':');
  if (parts.length !== 3) return false;
  const [kind, middle, scope] = parts as [string, string, string];
  if (kind === 'glb') return middle === '' && GLOBAL_SCOPE_SET.has(scope);
  if (kind === 'cst') return /^[A-Za-z0-9_-]+$/.test(middle) && PROJECT_SCOPE_SET.has(scope);
  return false;
}
