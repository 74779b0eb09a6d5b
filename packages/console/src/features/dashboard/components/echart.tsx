import { useComputedColorScheme } from '@mantine/core';
import { BarChart, MapChart } from 'echarts/charts';
import { GridComponent, LegendScrollComponent, TooltipComponent, VisualMapContinuousComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

// ECharts through `echarts/core` with only the parts the dashboard uses (issue 10 "Weight"): column
// and map series, axes, the scrolling legend, tooltip and the visual map's continuous scale (not its
// piecewise one: 3 KiB gzip less, issue 38), drawn as SVG (the Canvas renderer would be 3.6 KiB gzip
// lighter, but the end-to-end specs find columns among the SVG's shapes). Not ECharts' aria
// component: it writes its own description over the box's label; the label and the data table
// beside each chart are what a screen reader reads. Bundled and loaded with the dashboard only (this module is imported by its pages alone).
echarts.use([BarChart, MapChart, GridComponent, LegendScrollComponent, TooltipComponent, VisualMapContinuousComponent, SVGRenderer]);

export { echarts };
export type ChartOption = echarts.EChartsCoreOption;

interface EChartProps {
  option: ChartOption;
  height: number;
  /** What the picture shows, for a screen reader (the data itself is in the table beside it). */
  label: string;
  /** A click on a data item (a column, a country): its series index and data index. */
  onItemClick?: (item: { seriesIndex: number; dataIndex: number; name: string }) => void;
  className?: string;
}

/**
 * One chart: made when it mounts (in the colour scheme of the page: ECharts' `dark` theme in dark
 * mode, made again when the scheme changes), given its option on every change, resized with its
 * box, disposed when it unmounts.
 */
export function EChart({ option, height, label, onItemClick, className }: EChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const scheme = useComputedColorScheme('light', { getInitialValueInEffect: false });
  const clicked = useRef(onItemClick);
  clicked.current = onItemClick;

  useEffect(() => {
    const element = box.current;
    if (!element) return undefined;
    const made = echarts.init(element, scheme === 'dark' ? 'dark' : undefined, { renderer: 'svg' });
    chart.current = made;
    made.on('click', (params) => {
      const { seriesIndex, dataIndex, name } = params as { seriesIndex?: number; dataIndex?: number; name?: string };
      if (seriesIndex !== undefined && dataIndex !== undefined && dataIndex >= 0) clicked.current?.({ seriesIndex, dataIndex, name: name ?? '' });
    });
    const resize = new ResizeObserver(() => made.resize());
    resize.observe(element);
    return () => {
      resize.disconnect();
      made.dispose();
      chart.current = null;
    };
  }, [scheme]);

  useEffect(() => {
    // The page's own background shows through; notMerge: a series or category that went away goes.
    // Columns grow into place, unless the person asked their system for less motion.
    const reducedMotion = typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    chart.current?.setOption({ backgroundColor: 'transparent', animation: !reducedMotion, ...option }, { notMerge: true });
  }, [option, scheme]);

  return <div ref={box} role="img" aria-label={label} className={className} style={{ height, width: '100%' }} />;
}
