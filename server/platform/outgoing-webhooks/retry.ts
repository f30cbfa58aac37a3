/**
 * When a failed delivery is tried again: the waits after the 1st, 2nd … failed attempt; after the
 * last one the delivery is given up (`failed`). 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: eight
 * attempts over 27.6 hours, so a receiver that is down for a day still gets every event.
 */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000];

/** The wait before the next attempt after `attempts` attempts failed, or null: give up. */
export function retryDelayAfter(attempts: number, schedule: readonly number[] = DEFAULT_RETRY_SCHEDULE_MS): number | null {
  return schedule[attempts - 1] ?? null;
}

/**
 * When an endpoint is disabled: it failed at least `failures` attempts in a row AND has failed
 * (without one success) for at least `failingForMs`. Both, so neither a burst of events to an
 * endpoint down for ten minutes nor one event retried over a day turns it off.
 */
export type DisableThresholds = { failures: number; failingForMs: number };

export const DEFAULT_DISABLE_THRESHOLDS: DisableThresholds = { failures: 20, failingForMs: 24 * 3_600_000 };
