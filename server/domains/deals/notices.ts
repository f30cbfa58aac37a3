import { eq } from "drizzle-orm";
import { formatMoney } from "#isomorphic/format";
import type { Db } from "#server/platform/db/client";
import { profiles } from "#server/platform/db/schema";
import { sendNotification, type NotificationDeps } from "#server/domains/notifications/send";
import { queueDealEvent } from "./deal-events";
import type { DealNews, DisputeNews, PlatformNews, WorkNews } from "./news";

const TITLES: Record<DealNews, string> = {
  application: "New application",
  offer: "New offer",
  counter: "New terms",
  accept: "Terms accepted",
  decline: "Deal declined",
  withdraw: "Deal withdrawn",
  request_cancel: "Asked to cancel",
  agree_cancel: "Deal cancelled",
  cancel_late: "Deal cancelled",
  dispute: "Deal disputed",
};

function sentence(news: DealNews, who: string, title: string, price: string): string {
  switch (news) {
    case "application":
      return `${who} applied to “${title}” for ${price}.`;
    case "offer":
      return `${who} offered ${price} for “${title}”.`;
    case "counter":
      return `${who} answered “${title}” with new terms: ${price}.`;
    case "accept":
      return `${who} accepted the terms of “${title}” (${price}).`;
    case "decline":
      return `${who} declined “${title}”.`;
    case "withdraw":
      return `${who} withdrew from “${title}”.`;
    case "request_cancel":
      return `${who} asked to cancel “${title}”. If you agree, the sponsor's ${price} is refunded.`;
    case "agree_cancel":
      return `${who} agreed to cancel “${title}”: the sponsor's ${price} is being refunded.`;
    case "cancel_late":
      return `${who} cancelled “${title}” after a due date passed without the work: the sponsor's ${price} is being refunded.`;
    case "dispute":
      return `${who} opened a dispute on “${title}”. The ${price} stays held until our staff decide; add what they should know to the thread.`;
  }
}

/** The name a person shows others, read in the caller's transaction. */
export async function shownNameOf(tx: Db, uid: string): Promise<string> {
  const [row] = await tx.select({ name: profiles.name }).from(profiles).where(eq(profiles.uid, uid));
  return row?.name.trim() || "Someone";
}

/**
 * Tells `recipientUid` what the other side did, in the transaction of the change: the notification
 * and, by their preference, the mail, with the price and a button to the deal. Both sides' webhook
 * endpoints get the step's event (deal-events.ts).
 */
export async function tellOtherSide(
  tx: Db,
  deps: NotificationDeps,
  input: { recipientUid: string | null; actorUid: string; news: DealNews; dealId: string; title: string; price: number; currency: string },
): Promise<void> {
  await queueDealEvent(tx, deps, { dealId: input.dealId, news: input.news });
  if (input.recipientUid === null) return;
  const who = await shownNameOf(tx, input.actorUid);
  await sendNotification(
    tx,
    {
      uid: input.recipientUid,
      kind: "deal-activity",
      title: TITLES[input.news],
      message: sentence(input.news, who, input.title, formatMoney(input.price, input.currency)),
      buttonText: "Open the deal",
      buttonDestination: `/app/deals/${input.dealId}`,
    },
    deps,
  );
}

/**
 * Tells both sides what the platform did, in the transaction of the change: each its own words
 * (the sponsor paid; the creator may start), with the notification and, by preference, the mail,
 * and the step's webhook event (deal-events.ts).
 */
export async function tellBothSides(
  tx: Db,
  deps: NotificationDeps,
  input: { deal: { id: string; title: string; creatorUid: string | null; sponsorUid: string | null }; news: PlatformNews; price: number; currency: string },
): Promise<void> {
  const { deal } = input;
  await queueDealEvent(tx, deps, { dealId: deal.id, news: input.news });
  const price = formatMoney(input.price, input.currency);
  const told =
    input.news === "funded"
      ? [
          { uid: deal.sponsorUid, message: `Your payment of ${price} for “${deal.title}” arrived. The platform holds it until the work is approved.` },
          { uid: deal.creatorUid, message: `“${deal.title}” is booked: the sponsor paid ${price}, held until the work is approved. You can start.` },
        ]
      : [
          { uid: deal.sponsorUid, message: `“${deal.title}” is complete: every deliverable is approved and the creator has been paid.` },
          { uid: deal.creatorUid, message: `“${deal.title}” is complete: ${price} is on its way to your payout account.` },
        ];
  const title = input.news === "funded" ? "Deal booked" : "Deal complete";
  for (const { uid, message } of told) {
    if (uid === null) continue;
    await sendNotification(tx, { uid, kind: "deal-activity", title, message, buttonText: "Open the deal", buttonDestination: `/app/deals/${deal.id}` }, deps);
  }
}

const WORK_TITLES: Record<WorkNews, string> = {
  submitted: "Work handed in",
  approved: "Work approved",
  changes: "Changes asked",
  "auto-approved": "Work approved",
};

/**
 * Tells the other side of the work: the sponsor when the creator hands something in, the creator
 * when the sponsor reviewed it, and both when the review window approved it; both sides' webhook
 * endpoints get the step's event (deal-events.ts), naming the deliverable by its place in the terms.
 */
export async function tellAboutWork(
  tx: Db,
  deps: NotificationDeps,
  input: { deal: { id: string; title: string; creatorUid: string | null; sponsorUid: string | null }; news: WorkNews; actorUid: string | null; deliverable: string; deliverableIndex: number },
): Promise<void> {
  const { deal, news, deliverable } = input;
  await queueDealEvent(tx, deps, { dealId: deal.id, news, deliverable: input.deliverableIndex });
  const who = input.actorUid ? await shownNameOf(tx, input.actorUid) : "The platform";
  const message = {
    submitted: `${who} handed in “${deliverable}” for “${deal.title}”: it waits on your review.`,
    approved: `${who} approved “${deliverable}” for “${deal.title}”.`,
    changes: `${who} asked for changes to “${deliverable}” for “${deal.title}”.`,
    "auto-approved": `“${deliverable}” for “${deal.title}” was approved: the review window passed without an answer.`,
  }[news];
  const to = news === "submitted" ? [deal.sponsorUid] : news === "auto-approved" ? [deal.sponsorUid, deal.creatorUid] : [deal.creatorUid];
  for (const uid of to) {
    if (uid === null) continue;
    await sendNotification(tx, { uid, kind: "deal-activity", title: WORK_TITLES[news], message, buttonText: "Open the deal", buttonDestination: `/app/deals/${deal.id}` }, deps);
  }
}

const DISPUTE_TITLES: Record<DisputeNews, string> = { frozen: "Deal disputed", decided: "Dispute decided", settled_paid: "Dispute settled", settled_refunded: "Dispute settled" };

/**
 * Tells both sides about a dispute the platform moved, in the transaction of the change: the card
 * dispute that froze the deal, staff's decision with its reason and amounts, and the money moved.
 */
export async function tellAboutDispute(
  tx: Db,
  deps: NotificationDeps,
  input: {
    deal: { id: string; title: string; creatorUid: string | null; sponsorUid: string | null };
    news: DisputeNews;
    moved?: { toSponsor: number; toCreator: number };
    currency?: string;
    reason?: string;
  },
): Promise<void> {
  const { deal, news } = input;
  const money = (amount: number) => formatMoney(amount, input.currency ?? "usd");
  const amounts = input.moved ? `${money(input.moved.toCreator)} to the creator, ${money(input.moved.toSponsor)} back to the sponsor` : "";
  const message = {
    frozen: `The sponsor's bank disputed the card payment for “${deal.title}”. The money stays held until our staff decide; add what they should know to the thread.`,
    decided: `Our staff decided the dispute on “${deal.title}”: ${amounts}. ${input.reason ?? ""}`.trim(),
    settled_paid: `The money of “${deal.title}” moved as decided: ${amounts}.`,
    settled_refunded: `The money of “${deal.title}” moved as decided: ${amounts}.`,
  }[news];
  await queueDealEvent(tx, deps, { dealId: deal.id, news });
  for (const uid of [deal.sponsorUid, deal.creatorUid]) {
    if (uid === null) continue;
    await sendNotification(tx, { uid, kind: "deal-activity", title: DISPUTE_TITLES[news], message, buttonText: "Open the deal", buttonDestination: `/app/deals/${deal.id}` }, deps);
  }
}
