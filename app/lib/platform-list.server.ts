import { PLATFORM_LIST_LIMIT } from "#server/domains/payments/records/platform-money";

/** A back-office list read with one row over the limit: the rows to show, and whether more exist (the page says so). */
export function capPlatformList<Row>(rows: Row[]) {
  return { rows: rows.slice(0, PLATFORM_LIST_LIMIT), more: rows.length > PLATFORM_LIST_LIMIT };
}
