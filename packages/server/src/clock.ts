/** The time source of every rule that depends on time (session expiry, code expiry); tests move it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
