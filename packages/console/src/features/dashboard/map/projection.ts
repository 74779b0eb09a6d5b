import type { Position } from 'geojson';
import { worldGeoJson } from './world.ts';

// The map's projection, written here rather than taken from d3 (issue 38: the dashboard's own
// chunks ≤ 150 KiB gzip). Natural Earth I (Šavrič et al., 2011), the polynomial d3-geo uses: the
// world as people know it, neither the equirectangular map's stretched north nor Mercator's giant
// Greenland. The countries are already cut at the antimeridian (world.ts), so every ring projects
// without jumping across the picture.

/** Longitude and latitude (degrees) → plane, y up, on a world about 5.5 wide. */
export function naturalEarth(lon: number, lat: number): [number, number] {
  const lambda = (lon * Math.PI) / 180;
  const phi = (lat * Math.PI) / 180;
  const phi2 = phi * phi;
  const phi4 = phi2 * phi2;
  return [
    lambda * (0.8707 - 0.131979 * phi2 + phi4 * (-0.013791 + phi4 * (0.003971 * phi2 - 0.001529 * phi4))),
    phi * (1.007226 + phi2 * (0.015085 + phi4 * (-0.044475 + 0.028874 * phi2 - 0.005916 * phi4))),
  ];
}

/** The picture's width in its own units (the SVG's viewBox); its height follows the world's proportions. */
export const MAP_WIDTH = 1000;
const PAD = 4;

export interface CountryShape {
  /** ISO 3166-1 alpha-2 code. */
  code: string;
  /** SVG path data in the viewBox's units. */
  d: string;
  /** The middle of its bounding box, where a tooltip opened from the keyboard points. */
  centre: [number, number];
}

/** The countries projected into a MAP_WIDTH-wide box: their paths, and the box's height. */
export function projectWorld(): { countries: CountryShape[]; height: number } {
  const world = worldGeoJson();
  const projected = world.features.map((f) => ({
    code: f.properties.name,
    polygons: f.geometry.coordinates.map((polygon) => polygon.map((ring) => ring.map(([lon = 0, lat = 0]: Position) => naturalEarth(lon, lat)))),
  }));
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const c of projected)
    for (const [x, y] of c.polygons.flat(2)) {
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
  const k = (MAP_WIDTH - 2 * PAD) / (x1 - x0);
  const px = (x: number) => Math.round((PAD + (x - x0) * k) * 10) / 10;
  const py = (y: number) => Math.round((PAD + (y1 - y) * k) * 10) / 10;
  const countries = projected.map(({ code, polygons }) => {
    const points = polygons.flat(2);
    const xs = points.map(([x]) => px(x));
    const ys = points.map(([, y]) => py(y));
    const d = polygons
      .flat()
      .map((ring) => `M${ring.map(([x, y]) => `${px(x)},${py(y)}`).join('L')}Z`)
      .join('');
    return { code, d, centre: [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2] as [number, number] };
  });
  return { countries, height: Math.ceil(2 * PAD + (y1 - y0) * k) };
}
