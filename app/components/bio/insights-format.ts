/**
 * How the insights page names days and sums up its charts. Days are UTC days
 * (YYYY-MM-DD, as the stats tables store them) and are shown in UTC, so the
 * server's render and every reader see the same dates.
 */
const SHORT_DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
const LONG_DAY = new Intl.DateTimeFormat("en-GB", { weekday: "short", day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
const COUNT = new Intl.NumberFormat("en-US");

/** A YYYY-MM-DD day as the instant its UTC day starts. */
export function dayStart(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

/** "12 Nov" */
export function shortDay(day: string): string {
  return SHORT_DAY.format(dayStart(day));
}

/** "Thu, 12 Nov 2026" */
export function longDay(day: string): string {
  return LONG_DAY.format(dayStart(day));
}

export function count(value: number): string {
  return COUNT.format(value);
}

export function plural(value: number, one: string, many = `${one}s`): string {
  return `${count(value)} ${value === 1 ? one : many}`;
}

/** "Views per day, last 30 days: 123 in total, most on 12 Nov (17)" */
export function viewsSummary(days: { day: string; views: number }[]): string {
  const heading = `Views per day, last ${days.length} days`;
  const total = days.reduce((sum, d) => sum + d.views, 0);
  if (total === 0) return `${heading}: none`;
  // The most recent of equally busy days: the one the owner most likely remembers.
  const busiest = days.reduce((best, d) => (d.views >= best.views ? d : best));
  return `${heading}: ${count(total)} in total, most on ${shortDay(busiest.day)} (${count(busiest.views)})`;
}

/** "Clicks per link: 12 in the last 30 days, most on YouTube (9); 80 in all" */
export function clicksSummary(links: { label: string; lastDays: number; allTime: number }[], windowDays: number): string {
  const recent = links.reduce((sum, l) => sum + l.lastDays, 0);
  const allTime = links.reduce((sum, l) => sum + l.allTime, 0);
  if (allTime === 0) return "Clicks per link: no clicks yet";
  const busiest = links.reduce((best, l) => (l.lastDays > best.lastDays ? l : best));
  const window = `in the last ${windowDays} days`;
  const recentPart = recent === 0 ? `none ${window}` : `${count(recent)} ${window}, most on ${busiest.label} (${count(busiest.lastDays)})`;
  return `Clicks per link: ${recentPart}; ${count(allTime)} in all`;
}

const PERCENT = new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 1 });

/** "2.5%"; a dash when there is nothing to divide by. */
export function percent(ratio: number | null): string {
  return ratio === null ? "–" : PERCENT.format(ratio);
}
