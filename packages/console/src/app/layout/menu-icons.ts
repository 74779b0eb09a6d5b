import type { MenuIcons } from '../../lib/routes.ts';

// The side menu's icons, by route, found in each feature's folder (features/{feature}/menu-icons.ts):
// a feature with a menu entry edits no file here. Kept out of the route table so that the icons load
// with the shell, not in the first download; project-nav.test.ts checks every menu route has one.
const features = import.meta.glob<{ menuIcons: MenuIcons }>('../../features/*/menu-icons.ts', { eager: true });

export const menuIcons: MenuIcons = Object.assign({}, ...Object.values(features).map((feature) => feature.menuIcons));
