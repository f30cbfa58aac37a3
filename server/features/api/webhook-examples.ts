import type { DealEventData } from "#server/domains/deals/deal-events";
import type { PublicNotification } from "#server/domains/notifications/public-notification";
import type { OpportunityHeartedData } from "#server/domains/opportunities/hearted-webhooks";
import type { PublicPayment } from "#server/domains/payments/records/public-payment";
import type { PublicMembership } from "#server/domains/pro/public-membership";
import type { MembershipEventData } from "#server/domains/memberships/membership-notices";
import type { WebhookEventType } from "#isomorphic/webhook-events";

/**
 * One realistic delivery body per event type, for the OpenAPI document and the webhooks guide.
 * Typed by the shapes the producers build, and checked against the document by
 * server/features/api/contract.test.ts, so an example cannot drift from what is sent.
 */
const PAID_AT = "2026-11-20T18:42:07.000Z";

const paid: PublicPayment = {
  id: "ss_9c2e41d07a5b3f86e1d2a4c7",
  kind: "tip",
  status: "completed",
  amount: 2500,
  currency: "usd",
  sponsorEmail: "maya.fan@example.com",
  message: "Your sourdough series got me through November. Keep baking!",
  createdAt: "2026-11-20T18:41:12.000Z",
  refundStatus: "none",
  dispute: null,
  paymentReference: "pi_3QhX2bLkT8vR0s1A0dE4fG7h",
  figures: { gross: 2500, returned: 0, fee: 250, net: 2250, processorFee: 103 },
  movements: [{ kind: "payment", createdAt: PAID_AT, gross: 2500, fee: 250, net: 2250, processorFee: 103 }],
};

const refunded: PublicPayment = {
  ...paid,
  status: "refunded",
  refundStatus: "succeeded",
  figures: { gross: 2500, returned: 2500, fee: 0, net: 0, processorFee: 103 },
  movements: [...paid.movements, { kind: "refund", createdAt: "2026-11-21T09:15:30.000Z", gross: -2500, fee: -250, net: -2250, processorFee: 0 }],
};

const disputed: PublicPayment = {
  ...paid,
  status: "disputed",
  dispute: { status: "needs_response", reason: "fraudulent", evidenceDueBy: "2026-12-04T23:59:59.000Z" },
  figures: { gross: 2500, returned: 2500, fee: 0, net: 0, processorFee: 1603 },
  movements: [...paid.movements, { kind: "dispute", createdAt: "2026-11-24T11:02:44.000Z", gross: -2500, fee: -250, net: -2250, processorFee: 1500 }],
};

const started: PublicMembership = { plan: "star_power", planName: "Star Power", status: "active", currentPeriodEnd: "2027-11-20T18:42:07.000Z", cancelAtPeriodEnd: false };

const ended: PublicMembership = { ...started, status: "canceled", currentPeriodEnd: "2026-11-20T18:42:07.000Z", cancelAtPeriodEnd: true };

const member: MembershipEventData["membership"] = {
  id: "mem_5d1c8a2f9e3b7a60c4d2e1f8",
  bioPageId: "page7f3a9c2e",
  tierId: "tier_2b7e91c4d05a",
  tierName: "Gold",
  status: "active",
  interval: "month",
  amount: 500,
  currency: "usd",
  currentPeriodEnd: "2026-12-20T18:42:07.000Z",
  cancelAtPeriodEnd: false,
  startedAt: PAID_AT,
  endedAt: null,
  memberName: "Maya Fan",
  memberEmail: "maya.fan@example.com",
  private: false,
};
const memberEvent = (membership: Partial<MembershipEventData["membership"]>, paymentId: string | null = null): MembershipEventData => ({ membership: { ...member, ...membership }, paymentId });

const hearted: OpportunityHeartedData = {
  opportunity: { id: "8206386400_Tq7Lm2XcR9vB4nK8sD1a", title: "Looking for cooking creators for our winter spice box" },
  newHearts: 3,
  totalHearts: 41,
  from: "2026-11-26T09:55:30.000Z",
  to: "2026-11-26T10:00:30.000Z",
};

const notified: PublicNotification = {
  id: "4b8f2c1e-7d3a-4e5b-9f60-2a1c3d4e5f67",
  kind: "payment-received",
  title: "Maya Fan tipped you $25.00",
  message: "A tip through Maya Makes. Their message, Refund and the CSV export are on Supporters.",
  unread: true,
  createdAt: PAID_AT,
  readAt: null,
  action: { text: "See it on Supporters", url: "https://sponsorgrid.example/app/account/supporters#payment-ss_9c2e41d07a5b3f86e1d2a4c7" },
};

const DEAL_AT = "2026-11-20T18:42:07.000Z";
const terms = {
  price: 75_000,
  currency: "usd",
  deliverables: [{ channel: "YouTube", format: "60-second integration", dueDate: "2026-12-15" }],
  usageRights: "organic" as const,
  usageDays: 30,
  exclusivityDays: 0,
  disclosureRequired: true,
  sponsorApproves: true,
  autoApproveDays: 3,
  message: "",
};
const fees = (price: number) => ({ price, platformFee: price / 10, creatorReceives: price - price / 10, percent: 10 });

/** An application to a sponsor's brief, as the sponsor reads it the moment it arrives. */
const proposedDeal: DealEventData["deal"] = {
  id: "deal_Vq3kP8sLm2XcR9vB",
  origin: "application",
  title: "Looking for cooking creators for our winter spice box",
  opportunityId: "8206386400_Tq7Lm2XcR9vB4nK8sD1a",
  state: "proposed",
  side: "sponsor",
  waitingOnYou: true,
  openedBy: "creator",
  pitch: "I bake with seasonal spices every week for 180k subscribers; a winter box fits my December series.",
  links: ["https://example.com/maya-media-kit"],
  bioPageEnding: "mayabakes",
  shortlisted: false,
  declineMessage: null,
  endedByYou: false,
  accepted: null,
  names: { creator: "Maya Bakes", sponsor: "Spice Route Co" },
  versions: [{ version: 1, proposedBy: "creator", ...terms, createdAt: "2026-11-18T09:12:00.000Z" }],
  actions: ["counter", "accept", "decline", "withdraw", "shortlist"],
  funding: null,
  work: null,
  release: null,
  dispute: null,
  cancelRequest: null,
  refunded: null,
  invoiceNumber: null,
  createdAt: "2026-11-18T09:12:00.000Z",
  fees: fees(75_000),
};
const countered = { version: 2, proposedBy: "sponsor" as const, ...terms, price: 60_000, exclusivityDays: 14, message: "A little less, with two weeks' exclusivity.", createdAt: "2026-11-19T11:30:00.000Z" };
/** The same deal as the creator reads it once the sponsor countered. */
const counteredDeal: DealEventData["deal"] = { ...proposedDeal, side: "creator", versions: [...proposedDeal.versions, countered], actions: ["counter", "accept", "decline", "withdraw"], fees: fees(60_000) };
const agreedDeal: DealEventData["deal"] = { ...counteredDeal, state: "agreed", waitingOnYou: false, side: "sponsor", accepted: { version: 2, byYou: false, at: "2026-11-19T15:02:11.000Z" }, actions: ["withdraw"] };
const fundedDeal: DealEventData["deal"] = {
  ...agreedDeal,
  state: "funded",
  side: "creator",
  accepted: { version: 2, byYou: true, at: "2026-11-19T15:02:11.000Z" },
  actions: ["request_cancel"],
  funding: { state: "paid", amount: 60_000, currency: "usd", paidAt: DEAL_AT },
  work: [{ index: 0, ...terms.deliverables[0]!, submissions: [], changeRoundsLeft: 2, overdue: false }],
};
const handedIn = { round: 1, liveUrl: "https://youtu.be/k3Xb9sQw2Lp", note: "Live since this morning.", state: "submitted" as const, submittedAt: "2026-12-10T08:00:00.000Z", autoApproveAt: "2026-12-13T08:00:00.000Z", reviewedAt: null, approvedBySilence: false, reviewNote: null };
const submittedDeal: DealEventData["deal"] = { ...fundedDeal, side: "sponsor", accepted: { version: 2, byYou: false, at: "2026-11-19T15:02:11.000Z" }, actions: ["request_cancel"], work: [{ ...fundedDeal.work![0]!, submissions: [handedIn] }] };
const changesDeal: DealEventData["deal"] = {
  ...fundedDeal,
  work: [{ ...fundedDeal.work![0]!, changeRoundsLeft: 1, submissions: [{ ...handedIn, state: "changes_requested", autoApproveAt: null, reviewedAt: "2026-12-10T14:20:00.000Z", reviewNote: "Please say the discount code out loud." }] }],
};
const completedDeal: DealEventData["deal"] = {
  ...fundedDeal,
  state: "completed",
  actions: [],
  work: [{ ...fundedDeal.work![0]!, submissions: [{ ...handedIn, state: "approved", autoApproveAt: null, reviewedAt: "2026-12-11T10:00:00.000Z" }] }],
  release: { amount: 54_000, currency: "usd", at: "2026-12-11T10:00:05.000Z" },
};
const cancelledDeal: DealEventData["deal"] = { ...submittedDeal, state: "cancelled", actions: [], endedByYou: true, work: [{ ...fundedDeal.work![0]!, overdue: true }], refunded: 60_000 };
const disputedDeal: DealEventData["deal"] = {
  ...submittedDeal,
  state: "disputed",
  actions: [],
  dispute: { openedBy: "you", reason: "The video went live without the discount code, twice.", openedAt: "2026-12-12T09:30:00.000Z", decision: null },
};
const decidedDeal: DealEventData["deal"] = {
  ...disputedDeal,
  dispute: {
    ...disputedDeal.dispute!,
    decision: { decision: "split", sponsorRefund: 20_000, creatorShare: 36_000, reason: "The video is live but misses the agreed code: two thirds of the price.", decidedAt: "2026-12-14T11:00:00.000Z", settled: false },
  },
};
const dealEvent = (deal: DealEventData["deal"], extra: Partial<DealEventData> = {}): DealEventData => ({ side: deal.side, deal, message: null, deliverable: null, ...extra });

const DATA: Record<WebhookEventType, unknown> = {
  "payment.succeeded": paid,
  "payment.refunded": refunded,
  "payment.disputed": disputed,
  "pro.started": started,
  "pro.ended": ended,
  "membership.created": memberEvent({}, "ss_9c2e41d07a5b3f86e1d2a4c7"),
  "membership.renewed": memberEvent({ currentPeriodEnd: "2027-01-20T18:42:07.000Z" }, "ss_4e7a0b2c9d1f3a5e8b6c0d2f"),
  "membership.payment_failed": memberEvent({ status: "past_due" }),
  "membership.cancelled": memberEvent({ status: "cancelled", cancelAtPeriodEnd: true }),
  "membership.ended": memberEvent({ status: "ended", endedAt: "2026-12-20T18:42:07.000Z" }),
  "opportunity.hearted": hearted,
  "notification.created": notified,
  "deal.proposed": dealEvent(proposedDeal),
  "deal.countered": dealEvent(counteredDeal),
  "deal.agreed": dealEvent(agreedDeal),
  "deal.declined": dealEvent({ ...counteredDeal, side: "sponsor", state: "declined", waitingOnYou: false, declineMessage: "Our December slots are full; let's talk in spring.", endedByYou: false, actions: [] }),
  "deal.withdrawn": dealEvent({ ...agreedDeal, state: "withdrawn", endedByYou: false, actions: [] }),
  "deal.funded": dealEvent(fundedDeal),
  "deal.work_submitted": dealEvent(submittedDeal, { deliverable: 0 }),
  "deal.changes_requested": dealEvent(changesDeal, { deliverable: 0 }),
  "deal.completed": dealEvent(completedDeal),
  "deal.cancelled": dealEvent(cancelledDeal),
  "deal.disputed": dealEvent(disputedDeal),
  "deal.dispute_decided": dealEvent(decidedDeal),
  "deal.message": dealEvent(fundedDeal, { message: { seq: 4, side: "sponsor", body: "Could the video go live before the 12th? Our launch moved up.", at: "2026-11-30T16:05:00.000Z" } }),
};

/** The whole body of an example delivery of `type`. */
export function webhookExample(type: WebhookEventType) {
  return { type, timestamp: type === "opportunity.hearted" ? "2026-11-26T10:01:00.000Z" : PAID_AT, data: DATA[type] };
}
