import type { Feature, FeatureCollection, MultiPolygon, Polygon, Position } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countries110m from 'world-atlas/countries-110m.json';
import { ALPHA2_OF_NAME, ALPHA2_OF_NUMERIC } from './iso-codes.ts';

// The dashboard's world map (issue 10): world-atlas's 110m country shapes, bundled (no map host),
// each named by its ISO 3166-1 alpha-2 code — the code the usage rollups count by — and cut at the
// antimeridian, because the map draws longitude and latitude as a plane: a ring that crosses 180°
// (Russia's Chukotka, Fiji) would otherwise be drawn as a band across the whole world.

type Ring = Position[];

/** Antarctica: no one signs in there, and its band along the bottom takes a fifth of the map. */
const LEFT_OUT = new Set(['010']);

/** Does a ring jump across the antimeridian (an edge longer than half the world)? */
function crosses(ring: Ring): boolean {
  return ring.some((p, i) => i > 0 && Math.abs((p[0] ?? 0) - (ring[i - 1]?.[0] ?? 0)) > 180);
}

/** One side of x = 180 (Sutherland–Hodgman against one line): `keep` tells which points are inside. */
function clipRing(ring: Ring, keep: (x: number) => boolean): Ring {
  const out: Ring = [];
  for (let i = 1; i < ring.length; i += 1) {
    const [px = 0, py = 0] = ring[i - 1] ?? [];
    const [qx = 0, qy = 0] = ring[i] ?? [];
    const cut = (): Position => [180, py + ((180 - px) * (qy - py)) / (qx - px)];
    if (keep(px) && keep(qx)) out.push([qx, qy]);
    else if (keep(px)) out.push(cut());
    else if (keep(qx)) out.push(cut(), [qx, qy]);
  }
  if (out.length > 0) out.push(out[0] as Position);
  return out.length >= 4 ? out : [];
}

/**
 * A polygon cut at the antimeridian: one that crosses it is moved onto 0°…360° (western longitudes
 * + 360), clipped on either side of 180°, and its eastern part moved back by 360°. Any other
 * polygon is answered as it is.
 */
export function cutAtAntimeridian(polygon: Ring[]): Ring[][] {
  if (!polygon.some(crosses)) return [polygon];
  const moved = polygon.map((ring) => ring.map(([x = 0, y = 0]) => [x < 0 ? x + 360 : x, y]));
  const west = moved.map((ring) => clipRing(ring, (x) => x <= 180)).filter((r) => r.length > 0);
  const east = moved.map((ring) => clipRing(ring, (x) => x >= 180).map(([x = 0, y = 0]) => [x - 360, y])).filter((r) => r.length > 0);
  return [west, east].filter((part) => part.length > 0);
}

function cutGeometry(geometry: Polygon | MultiPolygon): MultiPolygon {
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  return { type: 'MultiPolygon', coordinates: polygons.flatMap(cutAtAntimeridian) };
}

/** The countries as GeoJSON, `properties.name` the alpha-2 code (world-atlas's own name for a shape without one). */
export function worldGeoJson(): FeatureCollection<MultiPolygon, { name: string }> {
  const topology = countries110m as unknown as Topology<{ countries: GeometryCollection<{ name: string }> }>;
  const all = feature(topology, topology.objects.countries) as FeatureCollection<Polygon | MultiPolygon, { name: string }>;
  const features: Array<Feature<MultiPolygon, { name: string }>> = [];
  for (const f of all.features) {
    const numeric = f.id === undefined ? undefined : String(f.id);
    if (numeric !== undefined && LEFT_OUT.has(numeric)) continue;
    const name = (numeric !== undefined ? ALPHA2_OF_NUMERIC[numeric] : undefined) ?? ALPHA2_OF_NAME[f.properties.name] ?? f.properties.name;
    features.push({ type: 'Feature', properties: { name }, geometry: cutGeometry(f.geometry) });
  }
  return { type: 'FeatureCollection', features };
}
