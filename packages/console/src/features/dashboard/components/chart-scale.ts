// The arithmetic of the dashboard's own charts (issue 38: drawn without a chart library): the value
// axis's ticks, the categories' labels that fit, the columns' places in a period, the map's colours.

/**
 * Ticks of a count axis from 0: about `target` steps of 1, 2 or 5 × 10ⁿ, never less than 1 (a count
 * has no halves, as ECharts' `minInterval: 1`), the last at or above `max`. Nothing counted: 0 and 1.
 */
export function niceTicks(max: number, target = 5): number[] {
  if (!(max > 0)) return [0, 1];
  const rough = Math.max(1, max / target);
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  const top = Math.ceil(max / step) * step;
  return Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step);
}

/**
 * Every how many categories a label is written so that none overlaps its neighbour: a label of
 * `longest` characters at about `charWidth` px each, with a gap, in bands of `band` px.
 */
export function labelEvery(band: number, longest: number, charWidth = 6.6, gap = 10): number {
  if (band <= 0) return 1;
  return Math.max(1, Math.ceil((longest * charWidth + gap) / band));
}

/**
 * Where the columns of one period stand in its band (ECharts' defaults, so the picture did not
 * change: a fifth of the band left empty, 30 % of a column between two columns, at most `maxWidth`
 * wide): each column's left edge from the band's start, and the columns' width.
 */
export function columnsInBand(band: number, columns: number, maxWidth = 28): { width: number; lefts: number[] } {
  if (columns === 0) return { width: 0, lefts: [] };
  const width = Math.min(maxWidth, (band * 0.8) / (columns + 0.3 * (columns - 1)));
  const total = columns * width + (columns - 1) * 0.3 * width;
  const start = (band - total) / 2;
  return { width, lefts: Array.from({ length: columns }, (_, i) => start + i * 1.3 * width) };
}

function rgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** The colour `t` (0…1) of the way from `from` to `to` (`#rrggbb`), mixed channel by channel. */
export function mixColour(from: string, to: string, t: number): string {
  const a = rgb(from);
  const b = rgb(to);
  const k = Math.min(1, Math.max(0, t));
  return `#${a
    .map((c, i) =>
      Math.round(c + ((b[i] ?? 0) - c) * k)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}
