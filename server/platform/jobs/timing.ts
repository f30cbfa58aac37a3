/**
 * When a scheduled job runs: every so many milliseconds, or once a day at a UTC wall time.
 * Pure arithmetic, so the scheduler's decisions can be tested without a clock.
 */
export type Cadence = { every: number } | { dailyAtUtc: string };

const DAY_MS = 24 * 60 * 60 * 1000;
/** The first retry after a failure; each further failure doubles it, up to the cap below. */
export const FIRST_RETRY_MS = 30_000;
export const LONGEST_RETRY_MS = 60 * 60 * 1000;

/** The length of one period of a cadence (a day for a daily job). */
export function periodOf(cadence: Cadence): number {
  return "every" in cadence ? cadence.every : DAY_MS;
}

/**
 * The next due time after a run that was due at `due` and finished at `finished`: the next slot of
 * the cadence strictly after `finished`. Slots follow from the due time, not the finish, so a job
 * does not drift later by its own run time; slots missed while no process ran are not made up one
 * by one (the job runs once, then keeps its rhythm).
 */
export function nextDue(cadence: Cadence, due: Date, finished: Date): Date {
  if ("every" in cadence) {
    const behind = Math.max(0, finished.getTime() - due.getTime());
    return new Date(due.getTime() + (Math.floor(behind / cadence.every) + 1) * cadence.every);
  }
  const { hours, minutes } = wallTime(cadence.dailyAtUtc);
  const today = Date.UTC(finished.getUTCFullYear(), finished.getUTCMonth(), finished.getUTCDate(), hours, minutes);
  return new Date(today > finished.getTime() ? today : today + DAY_MS);
}

/** When to try again after `failures` failures in a row: doubling from 30 s, never later than the job's own next slot or an hour. */
export function retryAfter(cadence: Cadence, failures: number, now: Date): Date {
  const backoff = Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, failures - 1), LONGEST_RETRY_MS, periodOf(cadence));
  return new Date(now.getTime() + backoff);
}

/** "HH:MM" (UTC, 24 h) as numbers; a job list with another shape is a bug, thrown at start. */
export function wallTime(text: string): { hours: number; minutes: number } {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text);
  if (!match) throw new Error(`A daily job's time must be HH:MM in UTC, not "${text}"`);
  return { hours: Number(match[1]), minutes: Number(match[2]) };
}
