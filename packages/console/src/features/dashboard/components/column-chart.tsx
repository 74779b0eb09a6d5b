import { UnstyledButton } from '@mantine/core';
import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import { formatNumber } from '../../../lib/format-number.ts';
import { columnsInBand, labelEvery, niceTicks } from './chart-scale.ts';
import classes from './dashboard.module.css';
import { useWidth } from './use-width.ts';

// The usage chart's columns, drawn as SVG by the console itself (issue 38: ECharts alone weighed
// more than the dashboard's whole allowance; docs/decisions/0020). What it kept from ECharts' look
// and behaviour: series stacked by `stack`, stacks side by side in a period, a legend that turns a
// series off and on, the period's values in a tooltip, a column segment opening its events.

export interface ColumnSeries {
  name: string;
  colour: string;
  /** Series of the same stack pile up in one column; each stack is a column of its own in a period. */
  stack: string;
  values: readonly number[];
}

interface ColumnChartProps {
  categories: readonly string[];
  series: readonly ColumnSeries[];
  height: number;
  /** What the picture shows, for a screen reader (the data itself is in the table beside it). */
  label: string;
  /** How to use the chart from the keyboard, read after the label. */
  keyboardHint: string;
  /** A segment chosen (clicked, or Enter on it): its series and category; absent, segments open nothing. */
  onSelect?: (seriesIndex: number, categoryIndex: number) => void;
}

/** The legend's one row on a laptop (it wraps onto more on a phone, the picture keeps its own height). */
const LEGEND_HEIGHT = 36;
const MARGIN = { top: 10, right: 8, bottom: 26, left: 8 };
const FONT = 11;

interface Segment {
  series: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * A stacked column chart: one band a category, value axis from 0 with whole-number ticks, category
 * labels thinned out to those that fit. Pointer or keyboard (the picture is one tab stop: ← → move
 * between categories, ↑ ↓ between the period's segments, Enter opens one) shows a tooltip.
 */
export function ColumnChart({ categories, series, height, label, keyboardHint, onSelect }: ColumnChartProps) {
  const [box, measured] = useWidth<HTMLDivElement>();
  // Before the box is measured (and in a test's simulated DOM): a laptop's width.
  const width = measured > 0 ? measured : 640;
  const svgHeight = height - LEGEND_HEIGHT;
  const [hidden, setHidden] = useState<ReadonlySet<number>>(new Set());
  const [active, setActive] = useState<{ category: number; series: number | null; byKeyboard: boolean } | null>(null);
  const hintId = useId();
  const tooltipId = useId();

  const layout = useMemo(() => {
    const shown = series.map((s, i) => ({ s, i })).filter(({ i }) => !hidden.has(i));
    const stacks = [...new Set(shown.map(({ s }) => s.stack))];
    const heights = categories.map((_, c) =>
      stacks.map((stack) => shown.filter(({ s }) => s.stack === stack).reduce((sum, { s }) => sum + (s.values[c] ?? 0), 0)),
    );
    const ticks = niceTicks(Math.max(0, ...heights.flat()));
    const top = ticks.at(-1) ?? 1;
    const left = MARGIN.left + Math.max(...ticks.map((t) => formatNumber(t).length)) * 6.6 + 6;
    const plot = { x: left, y: MARGIN.top, width: Math.max(1, width - left - MARGIN.right), height: svgHeight - MARGIN.top - MARGIN.bottom };
    const band = plot.width / Math.max(1, categories.length);
    const y = (v: number) => plot.y + plot.height - (v / top) * plot.height;
    const { width: columnWidth, lefts } = columnsInBand(band, stacks.length);
    // Bottom up, in the series' order, as ECharts stacks them.
    const segments: Segment[][] = categories.map((_, c) => {
      const out: Segment[] = [];
      stacks.forEach((stack, k) => {
        let base = 0;
        for (const { s, i } of shown) {
          const v = s.values[c] ?? 0;
          if (s.stack !== stack || v <= 0) continue;
          out.push({ series: i, x: plot.x + c * band + (lefts[k] ?? 0), y: y(base + v), width: columnWidth, height: y(base) - y(base + v) });
          base += v;
        }
      });
      return out;
    });
    const every = labelEvery(band, Math.max(0, ...categories.map((c) => c.length)));
    return { plot, band, ticks, y, segments, every, shown };
  }, [categories, series, hidden, width, svgHeight]);

  const { plot, band, ticks, y, segments, every, shown } = layout;

  const move = (category: number, seriesIndex: number | null) => setActive({ category, series: seriesIndex, byKeyboard: true });
  const onKeyDown = (event: KeyboardEvent<SVGSVGElement>) => {
    const category = active?.category ?? 0;
    const here = segments[category] ?? [];
    const at = here.findIndex((s) => s.series === active?.series);
    const last = categories.length - 1;
    const keys: Record<string, () => void> = {
      ArrowRight: () => move(Math.min(last, category + 1), null),
      ArrowLeft: () => move(Math.max(0, category - 1), null),
      Home: () => move(0, null),
      End: () => move(last, null),
      // Up the column: the next segment above (from none, the lowest).
      ArrowUp: () => move(category, here[Math.min(here.length - 1, at + 1)]?.series ?? null),
      ArrowDown: () => move(category, at <= 0 ? null : (here[at - 1]?.series ?? null)),
      Enter: () => {
        if (active?.series != null) onSelect?.(active.series, category);
      },
      Escape: () => setActive(null),
    };
    const action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  };

  const tooltipLeft = active ? plot.x + (active.category + 0.5) * band : 0;
  const onRight = tooltipLeft < width / 2;

  return (
    <div className={classes.chart}>
      <div className={classes.legend}>
        {series.map((s, i) => (
          <UnstyledButton
            key={s.name}
            className={classes.legendItem}
            aria-pressed={!hidden.has(i)}
            onClick={() =>
              setHidden((before) => {
                const next = new Set(before);
                if (!next.delete(i)) next.add(i);
                return next;
              })
            }
          >
            <span className={classes.swatch} style={{ background: hidden.has(i) ? 'var(--mantine-color-dimmed)' : s.colour }} aria-hidden="true" />
            {s.name}
          </UnstyledButton>
        ))}
      </div>
      <div ref={box} className={classes.plotBox}>
        <svg
          width={width}
          height={svgHeight}
          role="img"
          aria-label={label}
          aria-describedby={active ? `${hintId} ${tooltipId}` : hintId}
          tabIndex={0}
          className={classes.svg}
          onKeyDown={onKeyDown}
          onFocus={() =>
            setActive(
              (a) =>
                a ?? {
                  category: Math.max(
                    0,
                    segments.findIndex((s) => s.length > 0),
                  ),
                  series: null,
                  byKeyboard: true,
                },
            )
          }
          onBlur={() => setActive(null)}
          onPointerLeave={() => setActive((a) => (a?.byKeyboard ? a : null))}
        >
          {ticks.map((t) => (
            <g key={t}>
              <line x1={plot.x} x2={plot.x + plot.width} y1={y(t)} y2={y(t)} className={t === 0 ? classes.axisLine : classes.gridLine} />
              <text x={plot.x - 6} y={y(t)} dy="0.32em" textAnchor="end" fontSize={FONT} className={classes.axisText}>
                {formatNumber(t)}
              </text>
            </g>
          ))}
          {categories.map((name, c) => (
            // By place: a range of 366 days names one day of the year twice.
            <g key={c}>
              {active?.category === c ? (
                <rect x={plot.x + c * band} y={plot.y} width={band} height={plot.height} className={classes.pointer} />
              ) : null}
              {/* The band catches the pointer anywhere in its period, as ECharts' axis tooltip did. */}
              <rect
                x={plot.x + c * band}
                y={plot.y}
                width={band}
                height={plot.height}
                fill="transparent"
                onPointerEnter={() => setActive({ category: c, series: null, byKeyboard: false })}
              />
              {c % every === 0 ? (
                <>
                  <line
                    x1={plot.x + (c + 0.5) * band}
                    x2={plot.x + (c + 0.5) * band}
                    y1={plot.y + plot.height}
                    y2={plot.y + plot.height + 4}
                    className={classes.axisLine}
                  />
                  <text
                    x={plot.x + (c + 0.5) * band}
                    y={plot.y + plot.height + 8}
                    dy="0.71em"
                    textAnchor="middle"
                    fontSize={FONT}
                    className={classes.axisText}
                  >
                    {name}
                  </text>
                </>
              ) : null}
            </g>
          ))}
          {segments.flatMap((column, c) =>
            column.map((s) => (
              <rect
                key={`${c}-${s.series}`}
                x={s.x}
                y={s.y}
                width={s.width}
                height={s.height}
                fill={series[s.series]?.colour}
                className={active?.category === c && active.series === s.series ? classes.segmentChosen : undefined}
                style={{ cursor: onSelect ? 'pointer' : 'default' }}
                onPointerEnter={() => setActive({ category: c, series: s.series, byKeyboard: false })}
                onClick={() => onSelect?.(s.series, c)}
              />
            )),
          )}
        </svg>
        <span id={hintId} hidden>
          {keyboardHint}
        </span>
        {active ? (
          <div
            id={tooltipId}
            role="tooltip"
            className={classes.tooltip}
            style={{ top: plot.y, ...(onRight ? { left: tooltipLeft + band / 2 + 8 } : { right: width - tooltipLeft + band / 2 + 8 }) }}
          >
            <div className={classes.tooltipTitle}>{categories[active.category]}</div>
            {shown.map(({ s, i }) => (
              <div key={s.name} className={classes.tooltipRow} data-chosen={active.series === i || undefined}>
                <span className={classes.swatch} style={{ background: s.colour }} aria-hidden="true" />
                <span>{s.name}</span>
                <span className={classes.tooltipValue}>{formatNumber(s.values[active.category] ?? 0)}</span>
              </div>
            ))}
          </div>
        ) : null}
      </div>
    </div>
  );
}
