import type { UsageKeys, UsageLocations, UsagePeriods } from '@latchkey/domain';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadFeatureTexts } from '../src/app/feature-texts.ts';
import { columnsInBand, labelEvery, mixColour, niceTicks } from '../src/features/dashboard/components/chart-scale.ts';
import { MAP_COLOURS } from '../src/features/dashboard/components/choropleth-map.tsx';
import { UsageChart } from '../src/features/dashboard/components/usage-chart.tsx';
import { UsageMap } from '../src/features/dashboard/components/usage-map.tsx';
import { renderUi } from './render-ui.tsx';

// Issue 38: the dashboard's column chart and map are the console's own SVG; what ECharts did for
// them (axis, stacking, tooltip, legend, a click opening the audit log) is tested here.

// The dashboard's texts load with its pages (app/feature-texts.ts); these tests render its parts alone.
beforeAll(() => loadFeatureTexts('dashboard'));
afterEach(() => vi.restoreAllMocks());

const keys = (issued: number, oidc = 0, jwt = 0): UsageKeys => ({ issued, events: { oidc, jwt, 'dvs-auth': 0, 'dvs-verify': 0, 'reg-code': 0 } });

/** 2025 by month: March had 2 registrations, 5 sign-ins and 4 ID tokens, May 1 sign-in. */
const YEAR: UsagePeriods = {
  totals: { issued: 2, sum: 10 },
  periodType: 'month',
  periods: Array.from({ length: 12 }, (_, m) => ({
    period: new Date(Date.UTC(2025, m, 1)).toISOString(),
    keys: m === 2 ? keys(2, 5, 4) : m === 4 ? keys(0, 1) : keys(0),
  })),
};
const RANGE = { fromDate: '2025-01-01', toDate: '2025-12-31' };
const COLOUR = { issued: '#12b886', oidc: '#4c6ef5', jwt: '#7950f2' };

function chart(projectId: string | null = 'p1') {
  const ui = renderUi(<UsageChart usage={YEAR} range={RANGE} projectId={projectId} />, { path: '/project/p1/dashboard' });
  const svg = screen.getByRole('img', { name: /^Column chart of registrations and events by month/ });
  const bars = (colour: string) => [...svg.querySelectorAll<SVGRectElement>(`rect[fill="${colour}"]`)];
  const box = (rect: SVGRectElement | undefined) => ({
    x: Number(rect?.getAttribute('x')),
    y: Number(rect?.getAttribute('y')),
    width: Number(rect?.getAttribute('width')),
    height: Number(rect?.getAttribute('height')),
  });
  return { ui, svg, bars, box };
}

describe('the scales of the dashboard’s charts', () => {
  it('ticks a count axis in whole steps of 1, 2 or 5 × 10ⁿ up to at least the largest value', () => {
    expect(niceTicks(0)).toEqual([0, 1]);
    expect(niceTicks(1)).toEqual([0, 1]);
    expect(niceTicks(4)).toEqual([0, 1, 2, 3, 4]);
    expect(niceTicks(9)).toEqual([0, 2, 4, 6, 8, 10]);
    expect(niceTicks(1234)).toEqual([0, 500, 1000, 1500]);
    expect(niceTicks(3)).toEqual([0, 1, 2, 3]);
  });

  it('thins the labels out when they would overlap, and keeps columns within their band', () => {
    expect(labelEvery(60, 8)).toBe(2);
    expect(labelEvery(80, 6)).toBe(1);
    expect(labelEvery(10, 5)).toBe(5);
    const { width, lefts } = columnsInBand(100, 2);
    expect(width).toBe(28);
    expect((lefts[1] ?? 0) + width).toBeLessThanOrEqual(100);
    expect(lefts[0]).toBeGreaterThan(0);
    expect(mixColour('#000000', '#ffffff', 0.5)).toBe('#808080');
  });
});

describe('the usage chart', () => {
  it('writes whole-number ticks above the tallest column, and thins the months’ labels to those that fit', () => {
    const { svg } = chart();
    const texts = [...svg.querySelectorAll('text')].map((t) => t.textContent);
    // The tallest column is March's events, 5 + 4.
    expect(texts.filter((t) => /^\d+$/.test(t ?? ''))).toEqual(['0', '2', '4', '6', '8', '10']);
    // At 640 px, "Mar 2025" fits in every other band.
    expect(texts.filter((t) => / 2025$/.test(t ?? ''))).toEqual(['Jan 2025', 'Mar 2025', 'May 2025', 'Jul 2025', 'Sep 2025', 'Nov 2025']);
  });

  it('stacks the events in one column and stands the registrations beside them', () => {
    const { bars, box } = chart();
    const [oidc, jwt, issued] = [box(bars(COLOUR.oidc)[0]), box(bars(COLOUR.jwt)[0]), box(bars(COLOUR.issued)[0])];
    expect(bars(COLOUR.oidc)).toHaveLength(2);
    // ID tokens stand on the sign-ins, in the same column, 4 on 5.
    expect(jwt.x).toBe(oidc.x);
    expect(jwt.y + jwt.height).toBeCloseTo(oidc.y);
    expect(jwt.height / oidc.height).toBeCloseTo(4 / 5);
    // Registrations have their own column on the same ground, left of the events'.
    expect(issued.x + issued.width).toBeLessThan(oidc.x);
    expect(issued.y + issued.height).toBeCloseTo(oidc.y + oidc.height);
    expect(issued.height / oidc.height).toBeCloseTo(2 / 5);
  });

  it('opens a column’s events in the audit log when it is clicked', async () => {
    const { ui, bars } = chart();
    await ui.user.click(bars(COLOUR.jwt)[0] as SVGRectElement);
    expect(ui.location()).toBe('/project/p1/audit#fromDate=2025-03-01&toDate=2025-03-31&scope=authcode&result=success&action=code.exchanged');
  });

  it('opens nothing on the usage of every project', async () => {
    const { ui, bars } = chart(null);
    await ui.user.click(bars(COLOUR.oidc)[0] as SVGRectElement);
    expect(ui.location()).toBe('/project/p1/dashboard');
  });

  it('lists the period’s values in a tooltip, from the keyboard too, and opens the chosen column with Enter', async () => {
    const { ui, svg } = chart();
    // The legend's six buttons first, then the picture: one tab stop.
    for (let i = 0; i < 7; i += 1) await ui.user.tab();
    expect(svg).toHaveFocus();
    // Focus starts on the first period with something to show.
    const tooltip = screen.getByRole('tooltip');
    expect(within(tooltip).getByText('Mar 2025')).toBeInTheDocument();
    expect(within(tooltip).getByText('Sign-ins (oidc)').nextSibling).toHaveTextContent('5');
    expect(within(tooltip).getByText('ID tokens (jwt)').nextSibling).toHaveTextContent('4');
    expect(svg).toHaveAccessibleDescription(expect.stringContaining('Mar 2025'));
    await ui.user.keyboard('{ArrowRight}{ArrowRight}');
    expect(within(screen.getByRole('tooltip')).getByText('May 2025')).toBeInTheDocument();
    await ui.user.keyboard('{ArrowLeft}{ArrowLeft}{ArrowUp}{ArrowUp}{Enter}');
    // Up from the ground: the registrations' column, then the sign-ins.
    expect(ui.location()).toBe('/project/p1/audit#fromDate=2025-03-01&toDate=2025-03-31&scope=oidc&result=success&action=sign_in');
  });

  it('shows the tooltip of the period under the pointer, and turns a series off and on from the legend', async () => {
    const { ui, svg, bars } = chart();
    fireEvent.pointerEnter(bars(COLOUR.oidc)[1] as SVGRectElement);
    expect(within(screen.getByRole('tooltip')).getByText('May 2025')).toBeInTheDocument();
    fireEvent.pointerLeave(svg);
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();

    const legend = screen.getByRole('button', { name: 'Sign-ins (oidc)' });
    await ui.user.click(legend);
    expect(legend).toHaveAttribute('aria-pressed', 'false');
    expect(bars(COLOUR.oidc)).toHaveLength(0);
    // Without the sign-ins the tallest column is 4: the axis follows.
    expect([...svg.querySelectorAll('text')].map((t) => t.textContent).filter((t) => /^\d+$/.test(t ?? ''))).toEqual(['0', '1', '2', '3', '4']);
    await ui.user.click(legend);
    expect(bars(COLOUR.oidc)).toHaveLength(2);
  });
});

const LOCATIONS: UsageLocations['locations'] = [
  { country: 'FR', keys: { sum: 3 } },
  { country: 'NL', keys: { sum: 7 } },
  { country: 'ZZ', keys: { sum: 2 } },
];

function map(projectId: string | null = 'p1') {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  const ui = renderUi(<UsageMap locations={LOCATIONS} range={RANGE} projectId={projectId} />, { path: '/project/p1/dashboard' });
  const svg = screen.getByRole('img', { name: /^World map of events by country/ });
  const country = (code: string) => svg.querySelector<SVGPathElement>(`path[data-country="${code}"]`) as SVGPathElement;
  return { ui, svg, country };
}

describe('the usage map', () => {
  it('shades each country on the scale from 0 to the busiest, and leaves the others the land’s colour', () => {
    const { country } = map();
    const { low, high, land } = MAP_COLOURS.light;
    expect(country('NL')).toHaveAttribute('fill', high);
    expect(country('FR')).toHaveAttribute('fill', mixColour(low, high, 3 / 7));
    expect(country('DE')).toHaveAttribute('fill', land);
    expect(country('NL').getAttribute('d')).toMatch(/^M[\d.]+,[\d.]+L/);
  });

  it('names the country under the pointer with its events, and opens them in the audit log', async () => {
    const { ui, country } = map();
    fireEvent.pointerMove(country('NL'), { clientX: 500, clientY: 100 });
    expect(screen.getByRole('tooltip')).toHaveTextContent('Netherlands: 7');
    expect(country('NL')).toHaveAttribute('fill', MAP_COLOURS.light.hover);
    fireEvent.pointerMove(country('DE'), { clientX: 510, clientY: 100 });
    expect(screen.getByRole('tooltip')).toHaveTextContent('Germany: 0');
    // A country without events opens nothing.
    await ui.user.click(country('DE'));
    expect(ui.location()).toBe('/project/p1/dashboard');
    await ui.user.click(country('NL'));
    expect(ui.location()).toBe('/project/p1/audit#fromDate=2025-01-01&toDate=2025-12-31&country=NL');
  });

  it('goes through the countries with events from the keyboard, busiest first, and opens one with Enter', async () => {
    const { ui, svg } = map();
    await ui.user.tab();
    expect(svg).toHaveFocus();
    expect(screen.getByRole('tooltip')).toHaveTextContent('Netherlands: 7');
    await ui.user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tooltip')).toHaveTextContent('France: 3');
    await ui.user.keyboard('{Enter}');
    expect(ui.location()).toBe('/project/p1/audit#fromDate=2025-01-01&toDate=2025-12-31&country=FR');
  });

  it('opens nothing on the usage of every project, and writes the scale’s ends', async () => {
    const { ui, svg, country } = map(null);
    await ui.user.click(country('NL'));
    expect(ui.location()).toBe('/project/p1/dashboard');
    // The scale beside the map: 0 and the busiest country's events at its ends.
    expect(svg.parentElement?.querySelector('[aria-hidden="true"]')).toHaveTextContent(/^07$/);
  });
});
