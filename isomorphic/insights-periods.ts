/**
 * The periods a bio page's insights cover, in UTC days ending today, and how
 * the page's `?days=` is read: anything but one of these is the default.
 */
export const INSIGHTS_PERIODS = [7, 30, 90, 365] as const;
export type InsightsPeriod = (typeof INSIGHTS_PERIODS)[number];
export const DEFAULT_INSIGHTS_PERIOD: InsightsPeriod = 30;

export function parseInsightsPeriod(value: string | null | undefined): InsightsPeriod {
  return INSIGHTS_PERIODS.find((days) => String(days) === value) ?? DEFAULT_INSIGHTS_PERIOD;
}

/** What a visit with no referring site is listed as. */
export const DIRECT_SITE = "Direct";
