import type { ComponentType } from 'react';
import {
  IconAppWindow,
  IconBrush,
  IconDeviceMobile,
  IconDevices,
  IconKey,
  IconLayoutDashboard,
  IconListDetails,
  IconSettings,
  IconUserCheck,
  IconUsers,
} from '@tabler/icons-react';
import type { Catalogue } from '../../lib/i18n/en.ts';
import { routes, type RouteName } from '../../lib/routes.ts';

export interface ProjectNavItem {
  route: RouteName;
  label: keyof Catalogue['nav'];
  icon: ComponentType<{ size?: number; 'aria-hidden'?: boolean | 'true' }>;
  href: (project: string) => string;
}

export interface ProjectNavGroup {
  label: keyof Catalogue['nav'];
  items: ProjectNavItem[];
}

// spec §2 "Layout": the side menu's two groups, in this order.
export const projectNav: ProjectNavGroup[] = [
  {
    label: 'overview',
    items: [
      { route: 'projectDashboard', label: 'dashboard', icon: IconLayoutDashboard, href: routes.projectDashboard },
      { route: 'projectApps', label: 'apps', icon: IconAppWindow, href: routes.projectApps },
      { route: 'projectDevices', label: 'devices', icon: IconDevices, href: routes.projectDevices },
      { route: 'projectAudit', label: 'audit', icon: IconListDetails, href: routes.projectAudit },
    ],
  },
  {
    label: 'configuration',
    items: [
      { route: 'projectSettings', label: 'settings', icon: IconSettings, href: routes.projectSettings },
      { route: 'projectBranding', label: 'branding', icon: IconBrush, href: routes.projectBranding },
      { route: 'projectUserVerification', label: 'userVerification', icon: IconUserCheck, href: routes.projectUserVerification },
      { route: 'projectOidc', label: 'oidc', icon: IconKey, href: routes.projectOidc },
      { route: 'projectMobileApps', label: 'mobileApps', icon: IconDeviceMobile, href: routes.projectMobileApps },
      { route: 'projectAccounts', label: 'accounts', icon: IconUsers, href: routes.projectAccounts },
    ],
  },
];
