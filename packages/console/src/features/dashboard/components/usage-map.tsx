import { UNKNOWN_COUNTRY, type UsageLocations } from '@latchkey/domain';
import { Anchor, Table, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { Link, useNavigate } from 'react-router';
import { countryName } from '../../../lib/country-name.ts';
import { formatUtcDate } from '../../../lib/format-date.ts';
import { auditLinkOfCountry } from '../usage-data.ts';
import classes from './dashboard.module.css';
import { DataTableToggle } from './data-table-toggle.tsx';
import { ChoroplethMap, MAP_REGIONS } from './choropleth-map.tsx';
import { formatNumber } from '../../../lib/format-number.ts';

interface UsageMapProps {
  locations: UsageLocations['locations'];
  range: { fromDate: string; toDate: string };
  /** The project whose audit log a country opens; null (every project): countries open nothing. */
  projectId: string | null;
}

/**
 * spec §2 "Dashboard": a world map, each country shaded by its event sum. A country the map does not
 * have (ZZ, or too small for 110m shapes) is logged and left off the map (spec §8), and stays in
 * the table; no rows at all: a text in place of the map. A country opens the audit log of its
 * events (issue 10).
 */
export function UsageMap({ locations, range, projectId }: UsageMapProps) {
  const { t } = useTranslation('dashboard');
  const navigate = useNavigate();
  const onMap = useMemo(() => {
    const shown = locations.filter((l) => MAP_REGIONS.has(l.country));
    for (const l of locations) if (!MAP_REGIONS.has(l.country)) console.warn(`Usage map: no shape for country ${l.country} (${l.keys.sum} events)`);
    return new Map(shown.map((l) => [l.country, l.keys.sum]));
  }, [locations]);

  if (locations.length === 0) {
    return (
      <Text c="dimmed" size="sm" role="status" className={classes.mapEmpty}>
        {t('map.none')}
      </Text>
    );
  }

  return (
    <>
      <ChoroplethMap
        values={onMap}
        label={t('map.label', { from: formatUtcDate(range.fromDate), to: formatUtcDate(range.toDate) })}
        keyboardHint={t(projectId ? 'map.keyboardOpens' : 'map.keyboard')}
        nameOf={(code) => countryName(code, t('map.unknown'))}
        onSelect={projectId ? (code) => void navigate(auditLinkOfCountry(projectId, code, range)) : undefined}
      />
      <DataTableToggle label={t('table.countriesLabel')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('table.country')}</Table.Th>
            <Table.Th scope="col" className={classes.number}>
              {t('table.events')}
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {locations.map((l) => {
            const name = countryName(l.country, t('map.unknown'));
            return (
              <Table.Tr key={l.country}>
                <Table.Th scope="row">{l.country === UNKNOWN_COUNTRY ? name : `${name} (${l.country})`}</Table.Th>
                <Table.Td className={classes.number}>
                  {projectId && l.country !== UNKNOWN_COUNTRY ? (
                    <Anchor component={Link} to={auditLinkOfCountry(projectId, l.country, range)} aria-label={t('table.openAudit', { what: name })}>
                      {formatNumber(l.keys.sum)}
                    </Anchor>
                  ) : (
                    formatNumber(l.keys.sum)
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </DataTableToggle>
    </>
  );
}
