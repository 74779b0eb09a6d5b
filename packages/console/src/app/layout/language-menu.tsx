import { Button, Menu, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconLanguage } from '@tabler/icons-react';
import { useTranslation } from '../../lib/i18n/react.tsx';
import { useSetLanguage } from '../../features/session/api/use-set-language.ts';
import { browser } from '../../lib/browser.ts';
import { changeLanguage, currentLanguage, LANGUAGE_NAMES, type Language } from '../../lib/i18n/index.ts';
import { notifyError } from '../../lib/notify.ts';
import classes from './layout.module.css';

/**
 * The console's language (issue 13): each named in itself, so a person finds theirs whatever is
 * shown now. The choice applies at once and is remembered for the account (every browser it uses)
 * and for this browser (the first render of the next visit).
 */
export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const setLanguage = useSetLanguage();
  const current = currentLanguage(i18n);

  const choose = async (language: Language) => {
    browser.storeLanguage(language);
    await changeLanguage(language);
    setLanguage.mutate(language, { onError: () => notifyError(t('layout.languageNotSaved')) });
  };

  return (
    <Menu position="bottom-end" shadow="md" withinPortal={false}>
      <Menu.Target>
        <Button variant="default" leftSection={<IconLanguage size={18} aria-hidden="true" />} className={classes.languageButton}>
          <VisuallyHidden>{t('layout.language')}: </VisuallyHidden>
          <span lang={current} className={classes.phoneHidden}>
            {LANGUAGE_NAMES[current]}
          </span>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {(Object.keys(LANGUAGE_NAMES) as Language[]).map((language) => (
          <Menu.Item
            key={language}
            lang={language}
            onClick={() => void choose(language)}
            aria-current={language === current ? 'true' : undefined}
            rightSection={language === current ? <IconCheck size={16} aria-hidden="true" /> : null}
          >
            {LANGUAGE_NAMES[language]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
