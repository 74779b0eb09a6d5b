import type { Position } from 'geojson';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { GRID, slimTopology } from '../src/features/dashboard/map/slim-topology.ts';
import { MAP_WIDTH, naturalEarth, projectWorld } from '../src/features/dashboard/map/projection.ts';
import { cutAtAntimeridian, worldGeoJson } from '../src/features/dashboard/map/world.ts';

// Issue 10: the map's shapes are world-atlas's, named by alpha-2 code and cut at the antimeridian.

/** The longest east-west step between two points in a row of any ring. */
function longestStep(rings: Position[][]): number {
  let longest = 0;
  for (const ring of rings)
    for (let i = 1; i < ring.length; i += 1) longest = Math.max(longest, Math.abs((ring[i]?.[0] ?? 0) - (ring[i - 1]?.[0] ?? 0)));
  return longest;
}

describe('the world map', () => {
  const world = worldGeoJson();
  const byCode = new Map(world.features.map((f) => [f.properties.name, f]));

  it('names every country by its ISO 3166-1 alpha-2 code, without Antarctica', () => {
    expect(world.features).toHaveLength(176);
    for (const code of ['GB', 'US', 'NL', 'RO', 'FR', 'BR', 'JP', 'RU', 'FJ', 'XK']) expect(byCode.has(code), code).toBe(true);
    expect(byCode.has('AQ')).toBe(false);
    const codes = world.features.map((f) => f.properties.name).filter((n) => /^[A-Z]{2}$/.test(n));
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('draws no edge across the world: Russia and Fiji are cut at 180°, on both sides', () => {
    for (const f of world.features) expect(longestStep(f.geometry.coordinates.flat()), f.properties.name).toBeLessThan(180);
    for (const code of ['RU', 'FJ']) {
      const xs = byCode
        .get(code)!
        .geometry.coordinates.flat(2)
        .map((p) => p[0] ?? 0);
      expect(Math.max(...xs), code).toBeCloseTo(180, 0);
      expect(Math.min(...xs), code).toBeLessThan(0);
      expect(Math.max(...xs)).toBeLessThanOrEqual(180);
      expect(Math.min(...xs)).toBeGreaterThanOrEqual(-180);
    }
  });

  it('is drawn from a topology of the size the picture needs (issue 38): countries only, on a coarser grid, every ring closed', () => {
    const source: unknown = JSON.parse(readFileSync(createRequire(import.meta.url).resolve('world-atlas/countries-110m.json'), 'utf8'));
    const slim = slimTopology(source);
    expect(Object.keys(slim.objects)).toEqual(['countries']);
    expect(slim.objects.countries.geometries.every((g) => Object.keys(g).sort().join() === 'arcs,id,type')).toBe(true);
    // Every coordinate is on the grid, and the file is a fraction of world-atlas's 105 KiB.
    const points = slim.arcs.flatMap((arc) => {
      let [x, y] = [0, 0];
      return arc.map(([dx = 0, dy = 0]) => [(x += dx), (y += dy)] as const);
    });
    expect(points.length).toBeGreaterThan(7000);
    expect(points.every(([x, y]) => Number.isInteger(x) && x >= 0 && x < GRID && Number.isInteger(y) && y >= 0 && y < GRID)).toBe(true);
    expect(JSON.stringify(slim).length).toBeLessThan(75_000);
    for (const f of world.features)
      for (const ring of f.geometry.coordinates.flat()) {
        expect(ring.length, f.properties.name).toBeGreaterThanOrEqual(4);
        expect(ring.at(-1), f.properties.name).toEqual(ring[0]);
      }
  });

  it('cuts a square across 180° into its western and eastern halves, and leaves other polygons alone', () => {
    const square: Position[] = [
      [170, 10],
      [-170, 10],
      [-170, -10],
      [170, -10],
      [170, 10],
    ];
    const [west, east] = cutAtAntimeridian([square]);
    expect(west?.[0]).toEqual([
      [180, 10],
      [180, -10],
      [170, -10],
      [170, 10],
      [180, 10],
    ]);
    expect(east?.[0]?.map(([x]) => x)).toEqual([-180, -170, -170, -180, -180]);
    const plain: Position[] = [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 0],
    ];
    expect(cutAtAntimeridian([plain])).toEqual([[plain]]);
  });

  it('projects the world with Natural Earth into the picture’s box: every country inside it, north up, east right', () => {
    // d3-geo's geoNaturalEarth1Raw at a few points.
    expect(naturalEarth(0, 0)).toEqual([0, 0]);
    const [x, y] = naturalEarth(180, 0);
    expect(x).toBeCloseTo(0.8707 * Math.PI, 6);
    expect(y).toBe(0);
    expect(naturalEarth(0, 90)[1]).toBeCloseTo(1.4224, 3);
    expect(naturalEarth(180, 60)[0]).toBeLessThan(naturalEarth(180, 0)[0]);

    const { countries, height } = projectWorld();
    expect(countries).toHaveLength(176);
    // Antarctica out: the world is about twice as wide as it is tall.
    expect(MAP_WIDTH / height).toBeGreaterThan(2);
    expect(MAP_WIDTH / height).toBeLessThan(2.6);
    for (const c of countries) {
      const numbers = [...c.d.matchAll(/(-?[\d.]+),(-?[\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])] as const);
      expect(numbers.length, c.code).toBeGreaterThan(3);
      expect(
        numbers.every(([px, py]) => px >= 0 && px <= MAP_WIDTH && py >= 0 && py <= height),
        c.code,
      ).toBe(true);
    }
    const centre = (code: string) => countries.find((c) => c.code === code)?.centre ?? [NaN, NaN];
    expect(centre('NO')[1]).toBeLessThan(centre('ZA')[1]);
    expect(centre('US')[0]).toBeLessThan(centre('GB')[0]);
    expect(centre('GB')[0]).toBeLessThan(centre('JP')[0]);
  });
});
