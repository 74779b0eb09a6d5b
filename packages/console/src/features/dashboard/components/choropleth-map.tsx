import { useComputedColorScheme } from '@mantine/core';
import { useId, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent, type PointerEvent } from 'react';
import { formatNumber } from '../../../lib/format-number.ts';
import { MAP_WIDTH, projectWorld } from '../map/projection.ts';
import { mixColour } from './chart-scale.ts';
import classes from './dashboard.module.css';

// The world map of the dashboard, drawn as SVG by the console itself (issue 38; docs/decisions/0020):
// the countries projected once, when the dashboard's code loads; each shaded on a continuous scale
// from 0 to the busiest country, the colours ECharts' visual map had.

const WORLD = projectWorld();

/** The map's colours in each scheme: the scale's two ends, a country without events, borders, the country under the pointer. */
export const MAP_COLOURS = {
  light: { low: '#d0ebff', high: '#1864ab', land: '#f1f3f5', border: '#adb5bd', hover: '#ffd43b' },
  dark: { low: '#1c3a5e', high: '#74c0fc', land: '#2e2e2e', border: '#5c5f66', hover: '#fab005' },
} as const;

/** The alpha-2 codes the map has a shape for. */
export const MAP_REGIONS: ReadonlySet<string> = new Set(WORLD.countries.map((c) => c.code));

interface ChoroplethMapProps {
  /** Events by alpha-2 code, for countries the map has. */
  values: ReadonlyMap<string, number>;
  label: string;
  keyboardHint: string;
  /** A country's name in the tooltip. */
  nameOf: (code: string) => string;
  /** A country with events chosen (clicked, or Enter on it); absent, countries open nothing. */
  onSelect?: (code: string) => void;
}

/**
 * The map: a tooltip for the country under the pointer; from the keyboard (the picture is one tab
 * stop) ← → go through the countries with events, busiest first, and Enter opens one.
 */
export function ChoroplethMap({ values, label, keyboardHint, nameOf, onSelect }: ChoroplethMapProps) {
  const colours = MAP_COLOURS[useComputedColorScheme('light', { getInitialValueInEffect: false }) === 'dark' ? 'dark' : 'light'];
  const box = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState<{ code: string; x: number; y: number } | null>(null);
  const hintId = useId();
  const tooltipId = useId();
  const max = Math.max(1, ...values.values());
  const ranked = useMemo(() => [...values].sort((a, b) => b[1] - a[1]).map(([code]) => code), [values]);

  // Where the keyboard's country is, in the box's pixels (the picture is scaled to the box's width).
  const atCentre = (code: string) => {
    const centre = WORLD.countries.find((c) => c.code === code)?.centre ?? [MAP_WIDTH / 2, WORLD.height / 2];
    const scale = (box.current?.getBoundingClientRect().width || MAP_WIDTH) / MAP_WIDTH;
    return { code, x: centre[0] * scale, y: centre[1] * scale };
  };
  const onPointerMove = (code: string) => (event: PointerEvent<SVGPathElement>) => {
    const rect = box.current?.getBoundingClientRect();
    setActive({ code, x: event.clientX - (rect?.left ?? 0), y: event.clientY - (rect?.top ?? 0) });
  };
  const onKeyDown = (event: KeyboardEvent<SVGSVGElement>) => {
    if (ranked.length === 0) return;
    const at = active ? ranked.indexOf(active.code) : -1;
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    if (step !== undefined) {
      event.preventDefault();
      const next = ranked[(at + step + ranked.length) % ranked.length] ?? ranked[0];
      if (next) setActive(atCentre(next));
    } else if (event.key === 'Enter' && active && values.has(active.code)) {
      event.preventDefault();
      onSelect?.(active.code);
    } else if (event.key === 'Escape') setActive(null);
  };

  const boxWidth = box.current?.getBoundingClientRect().width || MAP_WIDTH;
  return (
    <div ref={box} className={classes.mapBox}>
      <svg
        viewBox={`0 0 ${MAP_WIDTH} ${WORLD.height}`}
        role="img"
        aria-label={label}
        aria-describedby={active ? `${hintId} ${tooltipId}` : hintId}
        tabIndex={0}
        className={classes.map}
        onKeyDown={onKeyDown}
        onFocus={() => setActive((a) => a ?? (ranked[0] ? atCentre(ranked[0]) : null))}
        onBlur={() => setActive(null)}
        onPointerLeave={() => setActive(null)}
      >
        {WORLD.countries.map(({ code, d }) => {
          const value = values.get(code);
          const fill = active?.code === code ? colours.hover : value === undefined ? colours.land : mixColour(colours.low, colours.high, value / max);
          return (
            <path
              key={code}
              d={d}
              data-country={code}
              fill={fill}
              stroke={colours.border}
              className={classes.country}
              style={{ cursor: onSelect && value !== undefined ? 'pointer' : 'default' }}
              onPointerMove={onPointerMove(code)}
              onClick={() => {
                if (value !== undefined) onSelect?.(code);
              }}
            />
          );
        })}
      </svg>
      <span id={hintId} hidden>
        {keyboardHint}
      </span>
      {/* 0 first: the scale reads upwards beside the map, rightwards under it on a phone (dashboard.module.css). */}
      <div className={classes.scale} style={{ '--scale-low': colours.low, '--scale-high': colours.high } as CSSProperties} aria-hidden="true">
        <span>0</span>
        <span className={classes.scaleBar} />
        <span>{formatNumber(max)}</span>
      </div>
      {active ? (
        <div
          id={tooltipId}
          role="tooltip"
          className={classes.tooltip}
          style={{ top: active.y + 12, ...(active.x < boxWidth / 2 ? { left: active.x + 12 } : { right: boxWidth - active.x + 12 }) }}
        >
          {nameOf(active.code)}: {formatNumber(values.get(active.code) ?? 0)}
        </div>
      ) : null}
    </div>
  );
}
