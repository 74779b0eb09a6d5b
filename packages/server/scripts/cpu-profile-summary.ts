// A V8 CPU profile (.cpuprofile, as `BENCH_SERVER_PROF=<dir>` of bench/sign-ins.ts writes the
// server's) summed by self time: the top functions and the top files or packages, as shares of the
// busy time (idle left out), so two profiles taken under different machine load compare (issue 38,
// docs/decisions/0054). An allocation profile (.heapprofile, as `BENCH_SERVER_ALLOC=<file>` writes
// the server's) is summed the same way by bytes allocated, as shares of all sampled bytes.
// `--callers=<pattern>`: where the self time of the functions whose name (`name file:line`) matches
// the regular expression comes from, by their nearest callers (a CPU profile only): the way to
// see which of our calls a native or library cost stands for.
//
//   node packages/server/scripts/cpu-profile-summary.ts <file.cpuprofile|file.heapprofile> [top=20] [--callers=<pattern>]
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
/** A sampling heap profile: a call tree whose nodes hold the bytes allocated right there. */
interface AllocationNode {
  callFrame: ProfileNode['callFrame'];
  selfSize: number;
  children: AllocationNode[];
}

const options = process.argv.slice(2).filter((arg) => arg.startsWith('--'));
const [file, topArg] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
if (!file || options.some((option) => !option.startsWith('--callers='))) {
  console.error('usage: cpu-profile-summary.ts <file.cpuprofile|file.heapprofile> [top] [--callers=<pattern>]');
  process.exit(2);
}
const top = Number(topArg ?? 20);
const callersOf = options.find((option) => option.startsWith('--callers='))?.slice('--callers='.length);
/** Callers named per line of --callers. */
const CALLER_DEPTH = 4;

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
/** A frame as the tables name it: `function file:line`. */
function nameOf(frame: ProfileNode['callFrame']): string {
  return `${frame.functionName || '(anonymous)'} ${place(frame.url)}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
}
/** Adds `amount` to the frame's function and to its file or package. */
function count(frame: ProfileNode['callFrame'], amount: number): void {
  const where = place(frame.url);
  const name = nameOf(frame);
  byFunction.set(name, (byFunction.get(name) ?? 0) + amount);
  byPlace.set(where, (byPlace.get(where) ?? 0) + amount);
}
function print(what: string, format: (amount: number) => string, whole: number): void {
  for (const [title, table] of [
    ['functions', byFunction],
    ['files and packages', byPlace],
  ] as const) {
    console.log(`\ntop ${top} ${title} by ${what}:`);
    for (const [name, amount] of [...table].sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(`${((100 * amount) / whole).toFixed(1).padStart(5)}% ${format(amount)}  ${name}`);
  }
}

const read = JSON.parse(readFileSync(file, 'utf8')) as Profile | { head: AllocationNode };
if ('head' in read) {
  let bytes = 0;
  const walk = (node: AllocationNode) => {
    bytes += node.selfSize;
    if (node.selfSize > 0) count(node.callFrame, node.selfSize);
    node.children.forEach(walk);
  };
  walk(read.head);
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1).padStart(7)} MiB`;
  console.log(`allocated ${mb(bytes).trim()} (sampled)`);
  print('bytes allocated (share of all)', mb, bytes);
} else {
  const nodes = new Map(read.nodes.map((n) => [n.id, n]));
  // Each sample's time is the delta to the next one's; it is the self time of the node sampled.
  const selfTime = new Map<number, number>();
  read.samples.forEach((id, i) => selfTime.set(id, (selfTime.get(id) ?? 0) + (read.timeDeltas[i] ?? 0)));
  let total = 0;
  let idle = 0;
  for (const [id, micros] of selfTime) {
    const frame = (nodes.get(id) as ProfileNode).callFrame;
    total += micros;
    if (frame.functionName === '(idle)') idle += micros;
    else count(frame, micros);
  }
  const busy = total - idle;
  const ms = (micros: number) => `${(micros / 1000).toFixed(0).padStart(7)} ms`;
  console.log(`profiled ${ms(total).trim()}, idle ${ms(idle).trim()}, busy ${ms(busy).trim()}`);
  print('self time (share of busy)', ms, busy);
  if (callersOf !== undefined) {
    const matches = new RegExp(callersOf);
    const parents = new Map<number, number>();
    for (const node of read.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
    const byCallers = new Map<string, number>();
    const nameAt = (id: number) => nameOf((nodes.get(id) as ProfileNode).callFrame);
    for (const [id, micros] of selfTime) {
      const name = nameAt(id);
      if (!matches.test(name)) continue;
      const callers: string[] = [];
      for (let at = parents.get(id); at !== undefined && callers.length < CALLER_DEPTH; at = parents.get(at)) callers.push(nameAt(at));
      const line = `${name} ← ${callers.join(' ← ')}`;
      byCallers.set(line, (byCallers.get(line) ?? 0) + micros);
    }
    console.log(`\nself time of /${callersOf}/ by its ${CALLER_DEPTH} nearest callers (share of busy):`);
    for (const [line, micros] of [...byCallers].sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(`${((100 * micros) / busy).toFixed(1).padStart(5)}% ${ms(micros)}  ${line}`);
  }
}
