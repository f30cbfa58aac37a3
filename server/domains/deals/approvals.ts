import { and, eq, sql } from "drizzle-orm";
import { deals, dealSubmissions, dealTerms } from "#server/platform/db/schema";

/**
 * When a booked deal's work is all approved, as conditions on `deals` joined to `dealTerms`: what
 * makes its release due (release.ts) and what closes it to disputes (dispute-records.ts).
 */

/** The join of a deal to the version of its terms both sides accepted. */
export const acceptedTerms = and(eq(dealTerms.dealId, deals.id), eq(dealTerms.version, deals.acceptedVersion));

/** Every deliverable of the accepted terms has an approved submission (a condition on `deals` joined to `dealTerms` by `acceptedTerms`). */
export const everyDeliverableApproved = sql`(select count(distinct ${dealSubmissions.deliverable}) from ${dealSubmissions} where ${dealSubmissions.dealId} = ${deals.id} and ${dealSubmissions.state} = 'approved') >= jsonb_array_length(${dealTerms.deliverables})`;
