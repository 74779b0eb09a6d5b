import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files whose time is not in their size: they spawn servers or wait out real deadlines. On a fresh
 * clone Vitest has no durations to order by and starts the larger files first, so these came last
 * and the run ended with one worker on one of them (startup.test.ts: the last 8 s of a 240 s run,
 * the other worker idle). docs/decisions/0025, fifth round.
 */
const SLOW_FOR_THEIR_SIZE = ['packages/server/test/startup.test.ts', 'packages/server/test/probes.test.ts', 'packages/server/test/fuzz.test.ts'];

/** Vitest's order (failed first, then the longest or the largest), with the files above ahead of it. */
export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const slow = (file: TestSpecification) => SLOW_FOR_THEIR_SIZE.some((path) => file.moduleId.endsWith(path));
    return [...sorted.filter(slow), ...sorted.filter((file) => !slow(file))];
  }
}
