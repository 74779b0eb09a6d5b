import { IconWebhook } from '@tabler/icons-react';
import type { MenuIcons } from '../../lib/routes.ts';

/** This feature's entries' icons in the project side menu (their routes are in lib/routes.ts). */
export const menuIcons: MenuIcons = {
  projectWebhooks: IconWebhook,
};
