import { eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { sandboxCustomers, sandboxPrices, sandboxSubscriptions } from "#server/providers/payments/sandbox/schema";
import { planOfLookupKey, PRO_PLANS, type ProPlanKey } from "#isomorphic/pro-plans";
import { addInterval, findSandboxCustomer, readSandboxProState, recordCustomerChanged, runningSubscription } from "./billing";
import { refusal, success, type Refusal, type Success } from "#server/platform/errors";
import { type CardErrorCode, type CardField, type CardInput, checkCard } from "./cards";
import { SandboxRequestError } from "./errors";
import { checkLink, type LinkCheck, signLink } from "./signing";

/** How long a billing portal link works (Stripe's portal sessions are short-lived too). */
export const PORTAL_LINK_SECONDS = 60 * 60;
const seconds = (now: Date) => Math.floor(now.getTime() / 1000);

export function portalLink(origin: string, key: string, input: { customerId: string; returnUrl: string }, now: Date): string {
  let url: URL | null;
  try {
    url = new URL(input.returnUrl);
  } catch {
    url = null;
  }
  if (!url || url.origin !== origin) throw new SandboxRequestError("url_invalid", `return_url must be a URL on ${origin}`);
  const expires = seconds(now) + PORTAL_LINK_SECONDS;
  const sig = signLink(key, ["portal", input.customerId, input.returnUrl], expires);
  return `${origin}/sandbox/portal/${input.customerId}?${new URLSearchParams({ return: input.returnUrl, expires: String(expires), sig })}`;
}

export function checkPortalLink(key: string, customerId: string, search: URLSearchParams, now: Date): LinkCheck {
  return checkLink(key, ["portal", customerId, search.get("return") ?? ""], search.get("expires"), search.get("sig"), seconds(now));
}

/** What the portal page shows: the running subscription (or the last one), Limitless, the card. */
export async function readPortal(db: Db, customerId: string) {
  const customer = await findSandboxCustomer(db, customerId);
  if (!customer) return null;
  const state = await readSandboxProState(db, customerId);
  const latest = state.subscriptions.find((s) => s.status !== "canceled") ?? state.subscriptions[0] ?? null;
  return {
    email: customer.email,
    card: customer.cardLast4 ? { brand: customer.cardBrand ?? "card", last4: customer.cardLast4, failsRenewal: customer.cardFailsRenewal } : null,
    subscription: latest,
    limitless: state.lifetimePurchase,
  };
}

export type PortalAction =
  | { kind: "switch"; plan: ProPlanKey }
  | { kind: "cancel" }
  | { kind: "resume" }
  | { kind: "card"; card: CardInput }
  | { kind: "advance" };

/** Done (its message says what changed), refused for the subscription's state, or a card the sandbox declines. */
export type PortalResult =
  | Success<{ message: string }>
  | Refusal<"aborted", "NO_SUBSCRIPTION" | "SAME_PLAN" | "NOT_ON_SALE">
  | Refusal<"payment-required", CardErrorCode, { field: CardField }>;

/**
 * The portal's changes, each in one transaction with the subscription row
 * locked and the `pro.customer_changed` events it causes:
 * - switch between Launchpad and Star Power: the new price from the next renewal (no proration);
 * - cancel: at the period's end (Pro until then); resume: undoes that;
 * - card: a new default card; a past-due renewal is paid with it at once;
 * - advance: the test clock moves to the period's end: the subscription renews,
 *   fails to renew (past due, with a card whose renewals fail), or ends
 *   (cancelled, or still unpaid after a failed renewal).
 */
export async function applyPortalAction(db: Db, customerId: string, action: PortalAction, now: Date): Promise<PortalResult> {
  if (action.kind === "card") {
    const checked = checkCard(action.card, now);
    if (checked.kind === "ERROR") return checked;
    return db.transaction(async (tx): Promise<PortalResult> => {
      await tx
        .update(sandboxCustomers)
        .set({ cardBrand: checked.brand, cardLast4: checked.last4, cardFailsRenewal: checked.failsLaterCharges === true })
        .where(eq(sandboxCustomers.id, customerId));
      const sub = await runningSubscription(tx, customerId, true);
      if (sub?.status === "past_due" && !checked.failsLaterCharges) {
        await tx.update(sandboxSubscriptions).set({ status: "active" }).where(eq(sandboxSubscriptions.id, sub.id));
        await recordCustomerChanged(tx, customerId, "invoice.paid", now);
        await recordCustomerChanged(tx, customerId, "subscription.updated", now);
        return success({ message: "Card updated. The overdue renewal is paid." });
      }
      return success({ message: "Card updated." });
    });
  }
  return db.transaction(async (tx): Promise<PortalResult> => {
    const sub = await runningSubscription(tx, customerId, true);
    if (!sub) return refusal("aborted", "NO_SUBSCRIPTION", action.kind === "advance" ? "Nothing renews here: there is no running subscription." : "There is no running subscription.");
    const [price] = await tx.select().from(sandboxPrices).where(eq(sandboxPrices.id, sub.priceId));
    const set = (values: Partial<typeof sandboxSubscriptions.$inferInsert>) => tx.update(sandboxSubscriptions).set(values).where(eq(sandboxSubscriptions.id, sub.id));
    switch (action.kind) {
      case "switch": {
        if (action.plan === "limitless" || planOfLookupKey(price!.lookupKey) === action.plan) return refusal("aborted", "SAME_PLAN", "Choose another subscription plan.");
        const [target] = await tx.select().from(sandboxPrices).where(eq(sandboxPrices.lookupKey, PRO_PLANS[action.plan].lookupKey));
        if (!target) return refusal("aborted", "NOT_ON_SALE", "That plan is not on sale.");
        await set({ priceId: target.id });
        await recordCustomerChanged(tx, customerId, "subscription.updated", now);
        return success({ message: `Switched to ${PRO_PLANS[action.plan].name}. The new price applies from the next renewal.` });
      }
      case "cancel":
        await set({ cancelAtPeriodEnd: true });
        await recordCustomerChanged(tx, customerId, "subscription.updated", now);
        return success({ message: "Your plan is cancelled. It stays active until the end of the period." });
      case "resume":
        await set({ cancelAtPeriodEnd: false });
        await recordCustomerChanged(tx, customerId, "subscription.updated", now);
        return success({ message: "Your plan renews again." });
      case "advance": {
        const customer = (await tx.select().from(sandboxCustomers).where(eq(sandboxCustomers.id, customerId)))[0]!;
        if (sub.cancelAtPeriodEnd || sub.status === "past_due") {
          // A cancelled plan ends at its period's end; so does one whose failed renewal stays unpaid (Stripe's "cancel after retries").
          await set({ status: "canceled", currentPeriodEnd: sub.status === "past_due" ? now : sub.currentPeriodEnd });
          await recordCustomerChanged(tx, customerId, "subscription.deleted", now);
          return success({ message: "The period ended: the subscription is over." });
        }
        const nextEnd = addInterval(sub.currentPeriodEnd, price!.interval === "year" ? "year" : "month");
        if (customer.cardFailsRenewal) {
          await set({ status: "past_due", currentPeriodEnd: nextEnd });
          await recordCustomerChanged(tx, customerId, "invoice.payment_failed", now);
          await recordCustomerChanged(tx, customerId, "subscription.updated", now);
          return success({ message: "The renewal payment failed: the subscription is past due." });
        }
        await set({ currentPeriodEnd: nextEnd });
        await recordCustomerChanged(tx, customerId, "invoice.paid", now);
        await recordCustomerChanged(tx, customerId, "subscription.updated", now);
        return success({ message: "Renewed for another period." });
      }
    }
  });
}
