import { and, arrayContains, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { deals, webhookEndpoints, type DealSide } from "#server/platform/db/schema";
import { queueWebhookEvent } from "#server/platform/outgoing-webhooks/queue";
import type { NotificationDeps } from "#server/domains/notifications/send";
import type { WebhookEventType } from "#isomorphic/webhook-events";
import type { DealMessage, DealNews, DisputeNews, PlatformNews, WorkNews } from "./news";
import { feeSplit, readDeal, type DealView, type FeeSplit } from "./read";

/** The webhook events about deals. */
export type DealEventType = Extract<WebhookEventType, `deal.${string}`>;

/** Everything a deal's two sides are told of: the news of notices.ts, and a new message in the thread. */
export type DealEventNews = DealNews | PlatformNews | WorkNews | DisputeNews | "message";

/**
 * THE table of which deal news is which webhook event (null: none). Every step that tells a side
 * anything (notices.ts, thread.ts) queues its event through it, in the step's own transaction, so
 * an event exists exactly when its step committed. A news kind missing here does not compile: a
 * new step picks its event (or none) in this one place.
 */
export const DEAL_EVENT_OF_NEWS: Record<DealEventNews, DealEventType | null> = {
  application: "deal.proposed",
  offer: "deal.proposed",
  counter: "deal.countered",
  accept: "deal.agreed",
  decline: "deal.declined",
  withdraw: "deal.withdrawn",
  // Asking to cancel changes nothing yet; the other side agreeing is `deal.cancelled`.
  request_cancel: null,
  agree_cancel: "deal.cancelled",
  cancel_late: "deal.cancelled",
  funded: "deal.funded",
  completed: "deal.completed",
  submitted: "deal.work_submitted",
  changes: "deal.changes_requested",
  // One deliverable approved is not the deal's end: `deal.completed` follows once all are and the money is released.
  approved: null,
  "auto-approved": null,
  message: "deal.message",
  // A side's dispute, or the bank's card dispute that froze the deal.
  dispute: "deal.disputed",
  frozen: "deal.disputed",
  decided: "deal.dispute_decided",
  // The decided money moved: the deal ends as any other does.
  settled_paid: "deal.completed",
  settled_refunded: "deal.cancelled",
};

/**
 * What a deal event's `data` is, for the account it is delivered to: the deal as that account's
 * `GET /api/v1/deals/{dealId}` answers it (with the fee split), which side the account is on, the
 * new message of `deal.message`, and the deliverable (its place in the accepted terms) a work event is about.
 */
export type DealEventData = {
  side: DealSide;
  deal: DealView & { fees: FeeSplit };
  message: DealMessage | null;
  deliverable: number | null;
};

type DealEventInput = { dealId: string; news: DealEventNews; message?: DealMessage; deliverable?: number };

/**
 * Queues the event of `news` (DEAL_EVENT_OF_NEWS) for each side of the deal with an endpoint that
 * chose it, each with the deal as that side reads it. Call it with the step's transaction: the
 * deal is read as the step left it, and the event is committed, or rolled back, with the step.
 */
export async function queueDealEvent(tx: Db, deps: Pick<NotificationDeps, "platformFeePercent">, input: DealEventInput): Promise<void> {
  const type = DEAL_EVENT_OF_NEWS[input.news];
  if (type === null) return;
  const [deal] = await tx.select({ creatorUid: deals.creatorUid, sponsorUid: deals.sponsorUid }).from(deals).where(eq(deals.id, input.dealId));
  const sides = [deal?.creatorUid, deal?.sponsorUid].filter((uid): uid is string => typeof uid === "string");
  if (sides.length === 0) return;
  // Most accounts have no endpoint for it: one look, before reading the deal for anyone.
  const listening = await tx
    .selectDistinct({ uid: webhookEndpoints.uid })
    .from(webhookEndpoints)
    .where(and(inArray(webhookEndpoints.uid, sides), isNull(webhookEndpoints.disabledAt), arrayContains(webhookEndpoints.events, [type])));
  for (const { uid } of listening) {
    const read = await readDeal(tx, uid, input.dealId);
    if (!read) continue;
    const latest = read.view.versions.at(-1)!;
    const data: DealEventData = {
      side: read.view.side,
      deal: { ...read.view, fees: feeSplit(latest.price, deps.platformFeePercent) },
      message: input.message ?? null,
      deliverable: input.deliverable ?? null,
    };
    await queueWebhookEvent(tx, { uid, type, orderingKey: `deal:${input.dealId}`, data });
  }
}
