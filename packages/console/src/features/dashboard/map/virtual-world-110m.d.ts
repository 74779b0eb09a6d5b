// The countries of world-atlas 110m as the map draws them, made at build time (vite.config.ts, map/slim-topology.ts).
declare module 'virtual:world-110m' {
  import type { GeometryCollection, Topology } from 'topojson-specification';

  const topology: Topology<{ countries: GeometryCollection }>;
  export default topology;
}
