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
import type { MenuRouteName } from '../../lib/routes.ts';

export type MenuIcon = ComponentType<{ size?: number; 'aria-hidden'?: boolean | 'true' }>;

// The side menu's icons, by route. Kept out of the route table so that the icons load with the shell,
// not in the first download; the type makes a menu route without an icon a compile error.
export const menuIcons: Record<MenuRouteName, MenuIcon> = {
  projectDashboard: IconLayoutDashboard,
  projectApps: IconAppWindow,
  projectDevices: IconDevices,
  projectAudit: IconListDetails,
  projectSettings: IconSettings,
  projectBranding: IconBrush,
  projectUserVerification: IconUserCheck,
  projectOidc: IconKey,
  projectMobileApps: IconDeviceMobile,
  projectAccounts: IconUsers,
};
