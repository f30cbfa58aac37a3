import { and, isNull, sql, type SQL } from "drizzle-orm";
import { externalSponsors } from "#server/platform/db/schema";

/**
 * Whether the directory holds a real company (not an invented sample, not retired). One
 * uncorrelated EXISTS: the database answers it once per statement, whatever the rows read.
 */
const realCompanyExists = sql`exists (select 1 from external_sponsors as real_company where not real_company.sample and real_company.retired_at is null)`;

/**
 * The rows every reader's page may show. Retired companies never; invented sample companies (the
 * catalogue the project ships) only while the deployment has no real company, so a fresh install
 * has a directory to try and a live one never mixes made-up firms in with the companies staff
 * added. Staff's own back office reads every row regardless.
 */
export function shownInDirectory(): SQL {
  return and(isNull(externalSponsors.retiredAt), sql`(not ${externalSponsors.sample} or not ${realCompanyExists})`)!;
}
