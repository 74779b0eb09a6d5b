import {
  menuGroups,
  routeNames,
  routeOf,
  routes,
  type MenuGroup,
  type MenuIcon,
  type MenuRouteName,
  type NavLabelKey,
  type RouteName,
} from '../../lib/routes.ts';
import { menuIcons } from './menu-icons.ts';

export interface ProjectNavItem {
  route: MenuRouteName;
  label: NavLabelKey;
  icon: MenuIcon;
  href: (project: string) => string;
}

export interface ProjectNavGroup {
  label: MenuGroup;
  items: ProjectNavItem[];
}

function isMenuRoute(name: RouteName): name is MenuRouteName {
  return routeOf(name).menu !== undefined;
}

// spec §2 "Layout": the side menu's groups, each with the table's menu routes in table order.
export const projectNav: ProjectNavGroup[] = menuGroups.map((group) => ({
  label: group,
  items: routeNames.filter(isMenuRoute).flatMap((route) => {
    const menu = routeOf(route).menu;
    if (menu?.group !== group) return [];
    const icon = menuIcons[route];
    // A menu route's feature gives its icon (features/{feature}/menu-icons.ts).
    if (!icon) throw new Error(`Route ${route} is in the side menu but no feature's menu-icons.ts gives its icon`);
    return [{ route, label: menu.label, icon, href: (project: string) => routes[route](project) }];
  }),
}));
