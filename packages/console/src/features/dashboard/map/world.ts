import type { Feature, FeatureCollection, MultiPolygon, Polygon, Position } from 'geojson';
import { feature } from 'topojson-client';
import countries110m from 'virtual:world-110m';

// The dashboard's world map (issue 10): world-atlas's 110m country shapes, bundled (no map host),
// each named by its ISO 3166-1 alpha-2 code — the code the usage rollups count by — and cut at the
// antimeridian, because the map draws longitude and latitude as a plane: a ring that crosses 180°
// (Russia's Chukotka, Fiji) would otherwise be drawn as a band across the whole world. The codes,
// Antarctica's absence and a coarser grid are given at build time (map/slim-topology.ts, issue 38).

type Ring = Position[];

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
  const all = feature(countries110m, countries110m.objects.countries) as FeatureCollection<Polygon | MultiPolygon>;
  const features: Array<Feature<MultiPolygon, { name: string }>> = all.features.map((f) => ({
    type: 'Feature',
    properties: { name: String(f.id) },
    geometry: cutGeometry(f.geometry),
  }));
  return { type: 'FeatureCollection', features };
}
