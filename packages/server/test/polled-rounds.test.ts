import { describe, expect, it } from 'vitest';
import { polledRounds, SOON_MS } from '../src/db/polled-rounds.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The rounds behind back-channel logouts and webhooks (db/polled-rounds.ts): nudgeSoon is what a
// write that queued webhook messages asks for (issue 24), before its transaction has committed.
describe('polledRounds.nudgeSoon', () => {
  function counted() {
    let rounds = 0;
    const r = polledRounds({ round: async () => (rounds += 1), pollMs: 60_000, warn: () => undefined });
    return { r, rounds: () => rounds };
  }

  it('runs one round shortly after, for every nudge meanwhile, not at once', async () => {
    const { r, rounds } = counted();
    r.start();
    r.nudgeSoon();
    r.nudgeSoon();
    r.nudgeSoon();
    expect(rounds()).toBe(0);
    await sleep(SOON_MS + 40);
    expect(rounds()).toBe(1);
    r.nudgeSoon();
    await sleep(SOON_MS + 40);
    expect(rounds()).toBe(2);
    await r.stop();
  });

  it('runs nothing after stop, nor for a nudge after it', async () => {
    const { r, rounds } = counted();
    r.start();
    r.nudgeSoon();
    await r.stop();
    r.nudgeSoon();
    await sleep(SOON_MS + 40);
    expect(rounds()).toBe(0);
  });
});
