// A V8 CPU profile (.cpuprofile, as `BENCH_SERVER_PROF=<dir>` of bench/sign-ins.ts writes the
// server's) summed by self time: the top functions and the top files or packages, as shares of the
// busy time (idle left out), so two profiles taken under different machine load compare (issue 38,
// docs/decisions/0054):
//
//   node --import tsx packages/server/scripts/cpu-profile-summary.ts <file.cpuprofile> [top=20]
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: cpu-profile-summary.ts <file.cpuprofile> [top]');
  process.exit(2);
}
const top = Number(topArg ?? 20);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));

// Each sample's time is the delta to the next one's; it is the self time of the node sampled.
const selfTime = new Map<number, number>();
profile.samples.forEach((id, i) => selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));

/** A file as short as still tells it: node_modules/<package>, or the path under packages/. */
function place(url: string): string {
  if (!url) return '(native)';
  const path = url.replace(/^file:\/\//, '');
  const inModules = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (inModules) return `npm:${inModules[1]}`;
  return path.replace(/.*\/packages\//, '');
}

const byFunction = new Map<string, number>();
const byPlace = new Map<string, number>();
let total = 0;
let idle = 0;
for (const [id, micros] of selfTime) {
  const frame = (nodes.get(id) as ProfileNode).callFrame;
  total += micros;
  if (frame.functionName === '(idle)') {
    idle += micros;
    continue;
  }
  const where = place(frame.url);
  const name = `${frame.functionName || '(anonymous)'} ${where}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
  byPlace.set(where, (byPlace.get(where) ?? 0) + micros);
}
const busy = total - idle;
const ms = (micros: number) => `${(micros / 1000).toFixed(0).padStart(7)} ms`;
console.log(`profiled ${ms(total).trim()}, idle ${ms(idle).trim()}, busy ${ms(busy).trim()}`);
for (const [title, table] of [
  ['functions', byFunction],
  ['files and packages', byPlace],
] as const) {
  console.log(`\ntop ${top} ${title} by self time (share of busy):`);
  for (const [name, micros] of [...table].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${((100 * micros) / busy).toFixed(1).padStart(5)}% ${ms(micros)}  ${name}`);
}
