/**
 * The outbox's rounds, one lane per kind (outbox.ts), on every instance: a round now
 * when asked (`runNow`, `nudge`), else every `pollMs`; one round at a time per instance, and one
 * more after the one under way for whoever asks meanwhile (shared by them), so what a caller queued
 * before asking is always looked at by the round its promise waits for. `round` answers how much
 * it did, and is told to stop between batches (`stopping`).
 */
/** How long after nudgeSoon its round starts: a transaction that wrote what it queued has committed by then. */
export const SOON_MS = 20;

export function polledRounds(options: { round: (stopping: () => boolean) => Promise<number>; pollMs: number; warn: (error: unknown) => void }) {
  let running: Promise<number> | null = null;
  let next: Promise<number> | null = null;
  let stopping = false;
  let timer: NodeJS.Timeout | null = null;
  let soon: NodeJS.Timeout | null = null;

  function runNow(): Promise<number> {
    if (stopping) return Promise.resolve(0);
    if (running) {
      next ??= running
        .catch(() => 0)
        .then(() => {
          next = null;
          return runNow();
        });
      return next;
    }
    running = options
      .round(() => stopping)
      .finally(() => {
        running = null;
      });
    return running;
  }

  return {
    runNow,
    /** Something was queued here: a round now rather than at the next poll. */
    nudge(): void {
      void runNow().catch(options.warn);
    },
    /**
     * Something was queued in a transaction that may not have committed yet: a round shortly after
     * (SOON_MS), one for all asking meanwhile; a commit later than that waits for the next poll.
     */
    nudgeSoon(): void {
      if (stopping || soon) return;
      soon = setTimeout(() => {
        soon = null;
        void runNow().catch(options.warn);
      }, SOON_MS);
      soon.unref();
    },
    start(): void {
      stopping = false;
      timer ??= setInterval(() => void runNow().catch(options.warn), options.pollMs);
      timer.unref();
    },
    /** Stops polling and waits for the round under way (no other batch is taken: what is due waits for an instance). */
    async stop(): Promise<void> {
      stopping = true;
      if (timer) clearInterval(timer);
      timer = null;
      if (soon) clearTimeout(soon);
      soon = null;
      await running?.catch(() => undefined);
      await next?.catch(() => undefined);
    },
  };
}
