/** A moment as staff read it everywhere in the back office: UTC, to the minute. */
export function utcTime(at: Date | string): string {
  return `${new Date(at).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** A calendar date (UTC). */
export function utcDate(at: Date | string): string {
  return new Date(at).toISOString().slice(0, 10);
}
