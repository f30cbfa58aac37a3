/**
 * The application deadline as a person types it: a wall-clock date and time
 * in a named IANA time zone (docs/decisions/0008-deadline-time-zones.md).
 * Everything here uses Intl only: the zone's offset is read for the date in
 * question, never the offset of "now", so a July deadline typed in January
 * keeps the time the poster typed.
 */

export type WallTime = { year: number; month: number; day: number; hour: number; minute: number };
export type DeadlineFields = { deadlineDate: string; deadlineTime: string; deadlineTimeZone: string };
type DeadlineField = keyof DeadlineFields;

export const MIN_DEADLINE_YEAR = 1900;
export const MAX_DEADLINE_YEAR = 9999;
const MINUTE = 60_000;
const DAY = 86_400_000;

export const DEADLINE_MESSAGES = {
  dateFormat: "Enter a date like 2030-07-15",
  realDate: "Enter a real date: that day doesn't exist",
  year: `Enter a year from ${MIN_DEADLINE_YEAR} to ${MAX_DEADLINE_YEAR}`,
  time: "Enter a time between 00:00 and 23:59",
  timeZone: "Choose a time zone from the list",
} as const;

/** Said when a post is saved with only a date or only a time: SPEC §5 stores a deadline only with both. */
export const HALF_DEADLINE_NOTICE = "Saved without a deadline: a deadline needs both a date and a time.";

// One formatter per zone (building one costs ICU look-ups); zones are a closed set of a few hundred.
// Pure and bounded, so one per process is safe: no request sees another's.
const wallFormats = new Map<string, Intl.DateTimeFormat>();

function wallFormat(timeZone: string): Intl.DateTimeFormat {
  let format = wallFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
    });
    if (wallFormats.size < 1000) wallFormats.set(timeZone, format);
  }
  return format;
}

// What Intl answers for a name never changes. Bounded: Intl takes names in any letter case, so
// the spellings of the few hundred zones are many more than the zones.
const canonicalNames = new Map<string, string>();

/** The canonical IANA name of `value` (aliases such as US/Eastern resolve), or null if Intl doesn't know it. */
export function canonicalTimeZone(value: string): string | null {
  const known = canonicalNames.get(value);
  if (known) return known;
  if (value.length === 0 || value.length > 64 || !/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(value)) return null;
  try {
    const canonical = new Intl.DateTimeFormat("en-US", { timeZone: value }).resolvedOptions().timeZone;
    // Only names Intl knows are kept.
    if (canonicalNames.size < 2000) canonicalNames.set(value, canonical);
    return canonical;
  } catch {
    return null;
  }
}

let choices: string[] | undefined;

/** The zones a poster can choose from: UTC first, then every IANA zone the server knows. */
export function timeZoneChoices(): string[] {
  choices ??= ["UTC", ...Intl.supportedValuesOf("timeZone").filter((zone) => zone !== "UTC")];
  return choices;
}

/** The wall clock in `timeZone` at `instant` (ms since the epoch), to the minute. */
export function wallTimeAt(instant: number, timeZone: string): WallTime {
  const parts: Record<string, number> = {};
  for (const part of wallFormat(timeZone).formatToParts(instant)) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute! };
}

/** The wall time read as if it were UTC, in ms: the base the zone's offset is added to. */
function asUtc(wall: WallTime): number {
  const date = new Date(0);
  date.setUTCFullYear(wall.year, wall.month - 1, wall.day);
  date.setUTCHours(wall.hour, wall.minute, 0, 0);
  return date.getTime();
}

/** How far `timeZone` is ahead of UTC at `instant`, in ms. */
function offsetAt(instant: number, timeZone: string): number {
  const flooredToMinute = Math.floor(instant / MINUTE) * MINUTE;
  return asUtc(wallTimeAt(flooredToMinute, timeZone)) - flooredToMinute;
}

/**
 * Every instant at which the clock in `timeZone` shows `wall`, earliest first:
 * none in a spring-forward gap, two in a fall-back overlap, one otherwise.
 * Offsets are at most ±14 h and zones change offset at most once in any two
 * days, so the offsets a day either side of the wall time cover every case.
 */
export function instantsFor(wall: WallTime, timeZone: string): number[] {
  const base = asUtc(wall);
  const offsets = new Set([offsetAt(base - DAY, timeZone), offsetAt(base, timeZone), offsetAt(base + DAY, timeZone)]);
  const found = new Set<number>();
  for (const offset of offsets) {
    const candidate = base - offset;
    if (asUtc(wallTimeAt(candidate, timeZone)) === base) found.add(candidate);
  }
  return [...found].sort((a, b) => a - b);
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** What the form shows for a stored deadline: its wall time in the zone it was typed in (UTC for posts saved without one). */
export function deadlineFields(deadline: Date | string | null, timeZone: string | null): DeadlineFields {
  if (deadline === null) return { deadlineDate: "", deadlineTime: "", deadlineTimeZone: timeZone ?? "" };
  const zone = (timeZone && canonicalTimeZone(timeZone)) || "UTC";
  const wall = wallTimeAt(new Date(deadline).getTime(), zone);
  return {
    deadlineDate: `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`,
    deadlineTime: `${pad(wall.hour)}:${pad(wall.minute)}`,
    deadlineTimeZone: zone,
  };
}

/** A deadline: the instant, and the zone its wall time was typed in. */
export type Deadline = { at: Date; timeZone: string };

export type DeadlineResult =
  | { kind: "SUCCESS"; deadline: Deadline | null; /** Why a half-filled deadline was left out. */ notice?: string }
  | { kind: "ERROR"; field: DeadlineField; message: string };

const fail = (field: DeadlineField, message: string): DeadlineResult => ({ kind: "ERROR", field, message });

function daysInMonth(year: number, month: number): number {
  const lastDay = new Date(0);
  lastDay.setUTCFullYear(year, month, 0); // day 0 of the next month
  return lastDay.getUTCDate();
}

/**
 * The deadline from the form's three fields (already trimmed). Stored only
 * when both date and time are given (SPEC §5): with only one of them the
 * post is saved without a deadline and a notice says so (amending
 * ADR 0008). Impossible dates and times are refused, never rolled
 * over; a time the clocks skip is refused; a time the clocks show twice is
 * the first of the two.
 */
export function parseDeadline({ deadlineDate: date, deadlineTime: time, deadlineTimeZone: zone }: DeadlineFields): DeadlineResult {
  if (!date && !time) return { kind: "SUCCESS", deadline: null };
  if (!date || !time) return { kind: "SUCCESS", deadline: null, notice: HALF_DEADLINE_NOTICE };
  const dateMatch = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!dateMatch) return fail("deadlineDate", DEADLINE_MESSAGES.dateFormat);
  const [year, month, day] = dateMatch.slice(1).map(Number) as [number, number, number];
  if (year < MIN_DEADLINE_YEAR || year > MAX_DEADLINE_YEAR) return fail("deadlineDate", DEADLINE_MESSAGES.year);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return fail("deadlineDate", DEADLINE_MESSAGES.realDate);
  const timeMatch = /^(\d{2}):(\d{2})$/.exec(time);
  const [hour, minute] = timeMatch ? (timeMatch.slice(1).map(Number) as [number, number]) : [NaN, NaN];
  if (!(hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59)) return fail("deadlineTime", DEADLINE_MESSAGES.time);
  const timeZone = canonicalTimeZone(zone);
  if (!timeZone) return fail("deadlineTimeZone", DEADLINE_MESSAGES.timeZone);

  const [first] = instantsFor({ year, month, day, hour, minute }, timeZone);
  if (first === undefined) {
    return fail("deadlineTime", `${time} doesn't exist on ${date} in ${timeZone.replace(/_/g, " ")}: the clocks skip it. Enter a later time`);
  }
  return { kind: "SUCCESS", deadline: { at: new Date(first), timeZone } };
}
