import { performance } from 'node:perf_hooks';
import type { Db } from '../src/db/db.ts';

// What the server benches print (scripts/bench.mjs reads it): progress lines, and one JSON line a
// figure {name, value, unit, target?, better?}.

export function say(line: string): void {
  process.stdout.write(`${line.startsWith('{') ? ' ' : ''}${line}\n`);
}

export function figure(name: string, value: number, unit: string, target?: number, better: 'lower' | 'higher' = 'lower'): void {
  const rounded = Math.round(value * 10) / 10;
  process.stdout.write(
    `${JSON.stringify({ name, value: rounded, unit, ...(target === undefined ? {} : { target }), ...(better === 'higher' ? { better } : {}) })}\n`,
  );
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

export interface Timing {
  p50: number;
  p95: number;
  max: number;
  runs: number;
}

export function timing(times: number[]): Timing {
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), max: times.at(-1) as number, runs: times.length };
}

export const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** Prints the plan of a statement as it ran (EXPLAIN ANALYZE, BUFFERS), under `label`. */
export async function explain(db: Db, label: string, sql: string, params: readonly unknown[]): Promise<void> {
  const { rows } = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
  say(`    ${label}:`);
  for (const r of rows) say(`      ${r['QUERY PLAN']}`);
}
