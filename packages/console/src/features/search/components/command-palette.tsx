import { SEARCH_KINDS } from '@latchkey/domain';
import { Badge, Group, Loader, Modal, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { keepPreviousData, skipToken } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { api } from '../../../lib/api/index.ts';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { useNavigate } from 'react-router';
import { useSessionAccount } from '../../../lib/session.ts';
import { useApiQuery } from '../../../lib/use-api.ts';
import { pageItems, pageMatches, resultItem, type PaletteGroup, type PaletteItem } from '../palette-items.ts';
import classes from './command-palette.module.css';

const GROUPS: readonly PaletteGroup[] = ['pages', ...SEARCH_KINDS];
const TYPING_PAUSE_MS = 200;

interface CommandPaletteProps {
  opened: boolean;
  onClose: () => void;
  /** The project the console is in: its pages are offered and its matches come first. */
  projectId: string | null;
  /** When the dialog has gone (its exit transition ended): where focus goes back to what opened it. */
  onClosed?: () => void;
}

/**
 * issue 13 "Find anything": a dialog with one search field (a combobox) over one list (a listbox)
 * of the pages to jump to and what the search found, grouped by kind. Focus stays in the field;
 * ↑/↓ move the active option (aria-activedescendant), Enter opens it, Esc closes and gives focus
 * back to what opened the dialog (the Modal traps and returns focus).
 */
export default function CommandPalette({ opened, onClose, projectId, onClosed }: CommandPaletteProps) {
  const { t } = useTranslation('search');
  const { t: tc } = useTranslation();
  const navigate = useNavigate();
  const { permissions } = useSessionAccount();
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query, TYPING_PAUSE_MS);
  const q = debounced.trim();
  // GET /search (issue 13): the current project's matches first; nothing asked for an empty query, and
  // while a new query runs the last answer stays.
  const search = useApiQuery(api.search, q ? { query: { q, ...(projectId ? { project: projectId } : {}) } } : skipToken, {
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const [active, setActive] = useState(0);
  const listId = useId();
  const listRef = useRef<HTMLDivElement>(null);

  const items = useMemo(() => {
    const pages = pageItems(projectId, permissions).filter((item) => pageMatches('key' in item.label ? tc(item.label.key) : item.label.text, query));
    // Only the answer to what is typed now: an older one (kept while the next loads) could be opened by an Enter pressed too soon.
    const current = query.trim() !== '' && debounced === query && search.data && !search.isPlaceholderData;
    const found = current ? search.data.results.map((r) => resultItem(r, projectId, permissions)) : [];
    return [...pages, ...found];
  }, [projectId, permissions, query, debounced, search.data, search.isPlaceholderData, tc]);

  // A new list starts at its first option.
  useEffect(() => setActive(0), [items]);
  useEffect(() => {
    listRef.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  const optionId = (index: number) => `${listId}-option-${index}`;
  const open = (item: PaletteItem) => {
    onClose();
    setQuery('');
    void navigate(item.to);
  };

  // ↑/↓ move through the options (wrapping round); Home, End and the other keys edit the text.
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (items.length === 0) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => (current + step + items.length) % items.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const item = items[active];
      if (item) open(item);
    }
  };

  const searching = query.trim() !== '' && (search.isFetching || debounced !== query);
  const status = searching
    ? t('searching')
    : search.isError
      ? t('failed')
      : items.length === 0
        ? t('noResults')
        : t('resultCount', { count: items.length });

  let index = -1;
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('title')}
      size="lg"
      yOffset="10vh"
      classNames={{ body: classes.body }}
      closeButtonProps={{ 'aria-label': t('close') }}
      // The launcher gives focus back itself: the dialog mounts already open (its code loads on the
      // first Ctrl+K), so the Modal never saw what had focus before it.
      returnFocus={false}
      onExitTransitionEnd={onClosed}
    >
      <TextInput
        data-autofocus
        label={t('label')}
        placeholder={t('placeholder')}
        description={t('help')}
        value={query}
        onChange={(event) => setQuery(event.currentTarget.value)}
        onKeyDown={onKeyDown}
        leftSection={<IconSearch size={16} aria-hidden="true" />}
        rightSection={searching ? <Loader size="xs" aria-hidden="true" /> : null}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={items.length > 0}
        aria-controls={listId}
        aria-activedescendant={items.length > 0 ? optionId(active) : undefined}
        autoComplete="off"
        spellCheck={false}
        maxLength={250}
      />
      <VisuallyHidden role="status">{status}</VisuallyHidden>
      <div id={listId} ref={listRef} role="listbox" aria-label={t('label')} className={classes.list}>
        {GROUPS.map((group) => {
          const inGroup = items.filter((item) => item.group === group);
          if (inGroup.length === 0) return null;
          const headingId = `${listId}-${group}`;
          return (
            <div key={group} role="group" aria-labelledby={headingId} className={classes.group}>
              <Text id={headingId} role="presentation" className={classes.groupLabel}>
                {group === 'pages' ? t('pages') : t(`kinds.${group}`)}
              </Text>
              {inGroup.map((item) => {
                index += 1;
                const mine = index;
                return (
                  <div
                    key={item.key}
                    id={optionId(mine)}
                    role="option"
                    aria-selected={mine === active}
                    className={classes.option}
                    onMouseDown={(event) => event.preventDefault()}
                    onMouseMove={() => setActive(mine)}
                    onClick={() => open(item)}
                  >
                    <Group gap="xs" wrap="nowrap" justify="space-between">
                      <span className={classes.optionLabel}>{'key' in item.label ? tc(item.label.key) : item.label.text}</span>
                      {item.state ? (
                        <Badge variant="light" color="gray" size="sm" className={classes.state}>
                          {t(item.state)}
                        </Badge>
                      ) : null}
                    </Group>
                    {item.detail ? <span className={classes.optionDetail}>{item.detail}</span> : null}
                  </div>
                );
              })}
            </div>
          );
        })}
        {items.length === 0 && !searching ? (
          <Text size="sm" c="dimmed" p="sm">
            {search.isError ? t('failed') : t('noResults')}
          </Text>
        ) : null}
      </div>
    </Modal>
  );
}
