import type { DealSide } from "#server/platform/db/schema";
import type { DealAction } from "./transitions";

/**
 * The kinds of news a deal's sides are told of, and the thread's shapes, in one leaf module: the
 * notices (notices.ts), the webhook events (deal-events.ts) and the thread (thread.ts) all name
 * them, and none of those may import another's internals in a circle.
 */

/** What happened to a deal, as the other side is told: the deal was opened, or one of the table's actions. */
export type DealNews = "application" | "offer" | Exclude<DealAction, "shortlist">;

/** What the platform did to a deal, as both sides are told: the sponsor's payment arrived, or the creator's share was paid. */
export type PlatformNews = "funded" | "completed";

/** What happened to the work on a booked deal. */
export type WorkNews = "submitted" | "approved" | "changes" | "auto-approved";

/** What became of a dispute: the bank froze the deal, staff decided, or the decided money moved. */
export type DisputeNews = "frozen" | "decided" | "settled_paid" | "settled_refunded";

/** One message of a deal's thread as either side reads it. */
export type DealMessage = { seq: number; side: DealSide; body: string; at: string };

/** Where one side's reading of a deal's thread stands, taken from the deal's row as readDeal reads it. */
export type DealThreadPlace = { dealId: string; side: DealSide; messageCount: number; readBefore: number };
