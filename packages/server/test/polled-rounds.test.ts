import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { polledRounds, SOON_MS } from '../src/outbox/polled-rounds.ts';

// The rounds behind back-channel logouts and webhooks (outbox/polled-rounds.ts): nudgeSoon is what a
// write that queued webhook messages asks for (issue 24), before its transaction has committed.
describe('polledRounds.nudgeSoon', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function counted() {
    let rounds = 0;
    const r = polledRounds({ round: async () => (rounds += 1), pollMs: 60_000, warn: () => undefined });
    return { r, rounds: () => rounds };
  }

  it('runs one round SOON_MS after, for every nudge meanwhile, not at once', async () => {
    const { r, rounds } = counted();
    r.start();
    r.nudgeSoon();
    r.nudgeSoon();
    r.nudgeSoon();
    await vi.advanceTimersByTimeAsync(SOON_MS - 1);
    expect(rounds()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(rounds()).toBe(1);
    r.nudgeSoon();
    await vi.advanceTimersByTimeAsync(SOON_MS);
    expect(rounds()).toBe(2);
    await r.stop();
  });

  it('runs nothing after stop, nor for a nudge after it', async () => {
    const { r, rounds } = counted();
    r.start();
    r.nudgeSoon();
    await r.stop();
    r.nudgeSoon();
    await vi.advanceTimersByTimeAsync(SOON_MS * 10);
    expect(rounds()).toBe(0);
  });
});
