import { UNKNOWN_COUNTRY, type UsageLocations } from '@latchkey/domain';
import { Anchor, Table, Text, useComputedColorScheme } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { Link, useNavigate } from 'react-router';
import { countryName } from '../../../lib/country-name.ts';
import { formatUtcDate } from '../../../lib/format-date.ts';
import { worldGeoJson } from '../map/world.ts';
import { auditLinkOfCountry } from '../usage-data.ts';
import classes from './dashboard.module.css';
import { DataTableToggle } from './data-table-toggle.tsx';
import { EChart, echarts, type ChartOption } from './echart.tsx';
import { formatNumber } from '../../../lib/format-number.ts';

const MAP_HEIGHT = 420;

// The world's shapes, registered once (world-atlas 110m, clipped at the antimeridian; map/world.ts).
const world = worldGeoJson();
echarts.registerMap('world', world as Parameters<typeof echarts.registerMap>[1]);
const REGIONS = new Set(world.features.map((f) => String(f.properties?.['name'] ?? '')));

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
  const dark = useComputedColorScheme('light', { getInitialValueInEffect: false }) === 'dark';

  const onMap = useMemo(() => {
    const shown = locations.filter((l) => REGIONS.has(l.country));
    for (const l of locations) if (!REGIONS.has(l.country)) console.warn(`Usage map: no shape for country ${l.country} (${l.keys.sum} events)`);
    return shown;
  }, [locations]);

  const option = useMemo<ChartOption>(() => {
    const max = Math.max(1, ...onMap.map((l) => l.keys.sum));
    return {
      tooltip: {
        trigger: 'item',
        formatter: (p: { name: string; value?: number }) =>
          `${countryName(p.name, t('map.unknown'))}: ${Number.isFinite(p.value) ? formatNumber(p.value as number) : 0}`,
      },
      visualMap: {
        // The only kind registered (echart.tsx).
        type: 'continuous',
        min: 0,
        max,
        left: 8,
        bottom: 8,
        itemHeight: 90,
        calculable: false,
        // The scale's ends, as numbers: the darkest shade is the busiest country.
        text: [formatNumber(max), '0'],
        inRange: { color: dark ? ['#1c3a5e', '#74c0fc'] : ['#d0ebff', '#1864ab'] },
        textStyle: { color: dark ? '#c9c9c9' : '#495057' },
      },
      series: [
        {
          type: 'map',
          map: 'world',
          roam: false,
          // The world fills the box's width (its height follows the map's proportions).
          left: 8,
          right: 8,
          top: 8,
          bottom: 8,
          nameProperty: 'name',
          cursor: projectId ? 'pointer' : 'default',
          itemStyle: { areaColor: dark ? '#2e2e2e' : '#f1f3f5', borderColor: dark ? '#5c5f66' : '#adb5bd', borderWidth: 0.5 },
          emphasis: { label: { show: false }, itemStyle: { areaColor: dark ? '#fab005' : '#ffd43b' } },
          select: { disabled: true },
          data: onMap.map((l) => ({ name: l.country, value: l.keys.sum })),
        },
      ],
    };
  }, [onMap, dark, projectId, t]);

  if (locations.length === 0) {
    return (
      <Text c="dimmed" size="sm" role="status" className={classes.mapEmpty}>
        {t('map.none')}
      </Text>
    );
  }

  return (
    <>
      <EChart
        option={option}
        height={MAP_HEIGHT}
        label={t('map.label', { from: formatUtcDate(range.fromDate), to: formatUtcDate(range.toDate) })}
        onItemClick={({ name }) => {
          if (projectId && onMap.some((l) => l.country === name)) void navigate(auditLinkOfCountry(projectId, name, range));
        }}
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
