import { eq } from "drizzle-orm";
import { formatMoney } from "#isomorphic/format";
import type { Db } from "#server/platform/db/client";
import { profiles } from "#server/platform/db/schema";
import { sendNotification, type NotificationDeps } from "#server/domains/notifications/send";
import type { DealAction } from "./transitions";

/** What happened to a deal, as the other side is told: the deal was opened, or one of the table's actions. */
export type DealNews = "application" | "offer" | Exclude<DealAction, "shortlist">;

const TITLES: Record<DealNews, string> = {
  application: "New application",
  offer: "New offer",
  counter: "New terms",
  accept: "Terms accepted",
  decline: "Deal declined",
  withdraw: "Deal withdrawn",
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
  }
}

/** The name a person shows others, read in the caller's transaction. */
export async function shownNameOf(tx: Db, uid: string): Promise<string> {
  const [row] = await tx.select({ name: profiles.name }).from(profiles).where(eq(profiles.uid, uid));
  return row?.name.trim() || "Someone";
}

/**
 * Tells `recipientUid` what the other side did, in the transaction of the change: the notification
 * and, by their preference, the mail, with the price and a button to the deal.
 */
export async function tellOtherSide(
  tx: Db,
  deps: NotificationDeps,
  input: { recipientUid: string | null; actorUid: string; news: DealNews; dealId: string; title: string; price: number; currency: string },
): Promise<void> {
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
