import { NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from '../../lib/i18n/react.tsx';
import { Link } from 'react-router';
import { parentOf, type RouteName } from '../../lib/routes.ts';
import { projectNav } from './project-nav.ts';
import classes from './layout.module.css';

/** The menu entry a route belongs to: itself, or the page it sits under (app create → Applications). */
export function activeNavRoute(route: RouteName | null): RouteName | null {
  if (route === null) return null;
  const parent = parentOf(route);
  return parent ?? route;
}

interface SideMenuProps {
  projectId: string;
  current: RouteName | null;
}

/** spec §2 "Layout": the project side menu (hidden on small screens, see the top bar's Menu). */
export function SideMenu({ projectId, current }: SideMenuProps) {
  const { t } = useTranslation();
  const active = activeNavRoute(current);
  const baseId = useId();
  return (
    <ScrollArea className={classes.navScroll} type="auto">
      <Stack gap="lg" p="md">
        {projectNav.map((group) => {
          const headingId = `${baseId}-${group.label}`;
          return (
            <div key={group.label}>
              <Text id={headingId} className={classes.navGroup}>
                {t(`nav.${group.label}`)}
              </Text>
              <ul className={classes.navList} aria-labelledby={headingId}>
                {group.items.map((item) => {
                  const Icon = item.icon;
                  const isActive = item.route === active;
                  return (
                    <li key={item.route}>
                      <NavLink
                        component={Link}
                        to={item.href(projectId)}
                        label={t(`nav.${item.label}`)}
                        leftSection={<Icon size={18} aria-hidden="true" />}
                        active={isActive}
                        aria-current={isActive ? 'page' : undefined}
                        className={classes.navLink}
                      />
                    </li>
                  );
                })}
              </ul>
            </div>
          );
        })}
      </Stack>
    </ScrollArea>
  );
}
