import type { GeometryCollection, Topology } from 'topojson-specification';
import { ALPHA2_OF_NAME, ALPHA2_OF_NUMERIC } from './iso-codes.ts';

// Run at build time (vite.config.ts, `virtual:world-110m`), not in the browser (issue 38: the
// dashboard's own chunks ≤ 150 KiB gzip). world-atlas's 110m file holds what the map never draws:
// a second object (`land`), Antarctica, a name beside each numeric code, and coordinates on a
// grid of 100,000 steps — 0.0036°, a hundredth of a pixel on a laptop's map. What is left is the
// countries the map shows, each named by the code the usage rollups count by, on a grid of GRID
// steps: 72 KiB of JSON (21 KiB gzip) instead of 105 KiB (37 KiB). The points themselves stay:
// 110m outlines are already simplified, and thinning them further (Visvalingam, up to a third of a
// pixel) saved under 2 KiB gzip.

/**
 * Steps across the world's width (and as many across its height). 360° / 4,000 = 0.09°: a quarter
 * of a pixel on the map of a laptop's dashboard (920 px wide), a third on a 1,400 px one; 110m
 * outlines hold few points closer than that. (8,000 steps: 2.7 KiB more gzip for nothing seen.)
 */
export const GRID = 4000;

/** Antarctica (ISO 010): no one signs in there, and its band along the bottom takes a fifth of the map. */
export const LEFT_OUT = new Set(['010']);

type Countries = Topology<{ countries: GeometryCollection<{ name?: string }> }>;

/** A country's name on the map: its ISO 3166-1 alpha-2 code (world-atlas's own name for a shape without one). */
function alpha2(id: string | number | undefined, name: string | undefined): string {
  const numeric = id === undefined ? undefined : String(id);
  return (numeric !== undefined ? ALPHA2_OF_NUMERIC[numeric] : undefined) ?? ALPHA2_OF_NAME[name ?? ''] ?? name ?? '';
}

/** Each arc as absolute grid points, from world-atlas's delta-encoded ones. */
function decodeArcs(topology: Countries): Array<Array<[number, number]>> {
  return topology.arcs.map((arc) => {
    let x = 0;
    let y = 0;
    return arc.map(([dx = 0, dy = 0]) => {
      x += dx;
      y += dy;
      return [x, y] as [number, number];
    });
  });
}

/**
 * The topology of the countries the map draws: `id` the alpha-2 code, no properties, no `land`,
 * Antarctica's arcs gone (the arcs renumbered), coordinates on a GRID × GRID grid, delta-encoded,
 * a point that falls on its predecessor's grid point dropped (an arc keeps its two ends, which it
 * shares with its neighbours: they land on the same grid point on both sides, so borders still meet).
 */
export function slimTopology(source: unknown, grid = GRID): Countries {
  const topology = source as Countries;
  const { transform } = topology;
  if (!transform) throw new Error('world-atlas: a quantized topology was expected');
  const kept = topology.objects.countries.geometries.filter((g) => !(g.id !== undefined && LEFT_OUT.has(String(g.id))));

  // Which arcs the kept countries use (an index below 0 is arc ~i, drawn backwards), renumbered in order.
  const used = new Map<number, number>();
  const visit = (arcs: unknown): unknown =>
    Array.isArray(arcs)
      ? arcs.map(visit)
      : ((index: number) => {
          const arc = index < 0 ? ~index : index;
          if (!used.has(arc)) used.set(arc, used.size);
          const renumbered = used.get(arc) ?? 0;
          return index < 0 ? ~renumbered : renumbered;
        })(arcs as number);

  const geometries = kept.map((g) => {
    if (g.type !== 'Polygon' && g.type !== 'MultiPolygon') throw new Error(`world-atlas: unexpected ${g.type}`);
    return { type: g.type, arcs: visit(g.arcs), id: alpha2(g.id, g.properties?.name) };
  });

  const [x0, y0] = topology.bbox ?? [-180, -90, 180, 90];
  const [sx, sy] = transform.scale;
  const [tx, ty] = transform.translate;
  const [, , x1 = 180, y1 = 90] = topology.bbox ?? [];
  const scale: [number, number] = [(x1 - (x0 ?? -180)) / (grid - 1), (y1 - (y0 ?? -90)) / (grid - 1)];
  const translate: [number, number] = [x0 ?? -180, y0 ?? -90];
  const decoded = decodeArcs(topology);
  const arcs = [...used.keys()].map((old) => {
    const points = (decoded[old] ?? []).map(
      ([qx, qy]) => [Math.round((qx * sx + tx - translate[0]) / scale[0]), Math.round((qy * sy + ty - translate[1]) / scale[1])] as [number, number],
    );
    const thinned = points.filter((p, i) => i === 0 || i === points.length - 1 || p[0] !== points[i - 1]?.[0] || p[1] !== points[i - 1]?.[1]);
    return thinned.map(([x, y], i) => (i === 0 ? [x, y] : [x - (thinned[i - 1]?.[0] ?? 0), y - (thinned[i - 1]?.[1] ?? 0)]));
  });

  return {
    type: 'Topology',
    transform: { scale, translate },
    objects: { countries: { type: 'GeometryCollection', geometries } as Countries['objects']['countries'] },
    arcs,
  } as Countries;
}
