import { Anchor, Button, Group, Menu, Text } from '@mantine/core';
import { IconExternalLink, IconLogout, IconMenu2 } from '@tabler/icons-react';
import { useTranslation } from '../../lib/i18n/react.tsx';
import { Link } from 'react-router';
import { api } from '../../lib/api/index.ts';
import { useLogout } from '../../features/session/api/use-logout.ts';
import { useSessionAccount } from '../../lib/session.ts';
import { useApiQuery } from '../../lib/use-api.ts';
import type { RouteName } from '../../lib/routes.ts';
import { Brand } from './brand.tsx';
import { ColorSchemeToggle } from './color-scheme-toggle.tsx';
import { LanguageMenu } from './language-menu.tsx';
import { SearchLauncher } from './search-launcher.tsx';
import { projectNav } from './project-nav.ts';
import { ProjectSwitcher } from './project-switcher.tsx';
import { activeNavRoute } from './side-menu.tsx';
import classes from './layout.module.css';

interface TopBarProps {
  projectId: string | null;
  projectName: string | undefined;
  /** The project menu goes in the Menu dropdown on small screens. */
  showProjectNav: boolean;
  current: RouteName | null;
}

/** spec §2 "Layout": project switcher, documentation and support links, the user's email, log out. */
export function TopBar({ projectId, projectName, showProjectNav, current }: TopBarProps) {
  const { t } = useTranslation();
  const account = useSessionAccount();
  // Deployment settings: documentation and support addresses (public: no session needed), fixed while the tab lives.
  const config = useApiQuery(api.getConsoleConfig, { expectSignedOut: true }, { staleTime: Infinity });
  const logout = useLogout();
  const docsUrl = config.data?.docsUrl;
  const supportUrl = config.data?.supportUrl;
  const active = activeNavRoute(current);

  return (
    <Group h="100%" px="md" gap="sm" justify="space-between" wrap="nowrap">
      <Group gap="md" wrap="nowrap" className={classes.topStart}>
        <Brand />
        <ProjectSwitcher currentProjectId={projectId} currentProjectName={projectName} />
      </Group>
      <Group gap="xs" wrap="nowrap" className={classes.topEnd}>
        <SearchLauncher projectId={projectId} />
        <Group gap="md" wrap="nowrap" visibleFrom="md" className={classes.topEnd}>
          {docsUrl ? (
            <Anchor href={docsUrl} target="_blank" rel="noopener noreferrer" size="sm" className={classes.topLink}>
              {t('layout.documentation')}
              <IconExternalLink size={14} aria-hidden="true" />
            </Anchor>
          ) : null}
          {supportUrl ? (
            <Anchor href={supportUrl} target="_blank" rel="noopener noreferrer" size="sm" className={classes.topLink}>
              {t('layout.support')}
              <IconExternalLink size={14} aria-hidden="true" />
            </Anchor>
          ) : null}
          <Text size="sm" className={classes.email} title={account.email}>
            {account.email}
          </Text>
          <Button
            variant="default"
            size="sm"
            leftSection={<IconLogout size={16} aria-hidden="true" />}
            onClick={() => logout.mutate()}
            loading={logout.isPending}
          >
            {t('layout.logOut')}
          </Button>
        </Group>
        <LanguageMenu />
        <ColorSchemeToggle />
        <Menu position="bottom-end" width={260} shadow="md" withInitialFocusPlaceholder={false} withinPortal={false}>
          <Menu.Target>
            <Button variant="default" hiddenFrom="md" leftSection={<IconMenu2 size={18} aria-hidden="true" />} className={classes.menuButton}>
              <span className={classes.phoneHidden}>{t('layout.menu')}</span>
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {showProjectNav && projectId
              ? projectNav.map((group) => (
                  <div key={group.label}>
                    <Menu.Label>{t(`nav.${group.label}`)}</Menu.Label>
                    {group.items.map((item) => {
                      const Icon = item.icon;
                      return (
                        <Menu.Item
                          key={item.route}
                          component={Link}
                          to={item.href(projectId)}
                          leftSection={<Icon size={16} aria-hidden="true" />}
                          aria-current={item.route === active ? 'page' : undefined}
                        >
                          {t(`nav.${item.label}`)}
                        </Menu.Item>
                      );
                    })}
                  </div>
                ))
              : null}
            {showProjectNav && projectId ? <Menu.Divider /> : null}
            {docsUrl ? (
              <Menu.Item component="a" href={docsUrl} target="_blank" rel="noopener noreferrer">
                {t('layout.documentation')}
              </Menu.Item>
            ) : null}
            {supportUrl ? (
              <Menu.Item component="a" href={supportUrl} target="_blank" rel="noopener noreferrer">
                {t('layout.support')}
              </Menu.Item>
            ) : null}
            <Menu.Divider />
            <Menu.Label>
              {t('layout.signedInAs')} <span className={classes.menuEmail}>{account.email}</span>
            </Menu.Label>
            <Menu.Item leftSection={<IconLogout size={16} aria-hidden="true" />} onClick={() => logout.mutate()}>
              {t('layout.logOut')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
    </Group>
  );
}
