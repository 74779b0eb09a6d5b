import { describe, expect, it } from 'vitest';
import { en } from '../../lib/i18n/en.ts';
import { projectNav } from './project-nav.ts';

describe('project side menu (spec §2 "Layout")', () => {
  it('has the spec’s groups and entries, in its order, each linking to its page', () => {
    const menu = projectNav.map((group) => [en.nav[group.label], group.items.map((item) => en.nav[item.label])]);
    expect(menu).toEqual([
      ['Overview', ['Dashboard', 'Applications', 'Users', 'Device Registrations', 'Audit Log']],
      ['Configuration', ['General', 'Branding', 'User Verification', 'OpenID Connect', 'Mobile Applications', 'Webhooks', 'Accounts']],
    ]);
    // Each entry's icon comes from its feature's folder (features/{feature}/menu-icons.ts).
    expect(projectNav.flatMap((group) => group.items).every((item) => typeof item.icon === 'function' || typeof item.icon === 'object')).toBe(true);
    const hrefs = projectNav.flatMap((group) => group.items.map((item) => item.href('p1')));
    expect(hrefs).toEqual([
      '/project/p1/dashboard',
      '/project/p1/apps',
      '/project/p1/users',
      '/project/p1/devices',
      '/project/p1/audit',
      '/project/p1/settings',
      '/project/p1/branding',
      '/project/p1/userverification',
      '/project/p1/oidc',
      '/project/p1/mobileapps',
      '/project/p1/webhooks',
      '/project/p1/accounts',
    ]);
  });
});
