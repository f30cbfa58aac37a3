import { and, desc, eq, gt, isNotNull, isNull } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { proCheckouts } from "#server/platform/db/schema";
import { domainError, success, type DomainError, type Success } from "#server/platform/errors";
import type { PaymentProvider } from "#server/providers/payments/port";
import { ensureBillingCustomer } from "./customers";
import { PRO_PLANS, type ProPlanKey } from "#isomorphic/pro-plans";
import { proPriceIds } from "./prices";
import { getProStatus, type ProStatus } from "./pro-status";

export type ProSessionResult =
  | Success<{ destination: "checkout"; url: string }>
  /** A subscriber chose the other subscription plan: that switch happens in the provider's portal. */
  | Success<{ destination: "portal" }>
  | DomainError<"aborted" | "unavailable">;

/**
 * What a person may buy, given where they stand (ADR 0023):
 * - not Pro: any plan;
 * - Launchpad or Star Power: not the same plan again; the other subscription
 *   plan is a switch in the portal (one subscription, never two); Limitless may
 *   be bought (it then outranks the subscription, which ends at its period's
 *   end: one-subscription.ts);
 * - Limitless: nothing, it never ends.
 */
export function proPurchaseRule(status: ProStatus, plan: ProPlanKey): "BUY" | "SWITCH_IN_PORTAL" | "ALREADY" {
  if (!status.isPro || !status.plan) return "BUY";
  if (status.plan === "limitless" || status.plan === plan) return "ALREADY";
  return plan === "limitless" ? "BUY" : "SWITCH_IN_PORTAL";
}

/** Where the Pro page takes someone back to after checkout, with where they came from. */
export function proReturnUrls(publicOrigin: string, returnTo: string) {
  const back = encodeURIComponent(returnTo);
  return { successUrl: `${publicOrigin}/app/pro?checkout=success&returnTo=${back}`, cancelUrl: `${publicOrigin}/app/pro?checkout=cancelled&returnTo=${back}` };
}

/** How long an open checkout must still have to be handed out again: enough to fill in a card. */
export const REUSE_MIN_REMAINING_MS = 10 * 60_000;

/** The person's open checkout for the plan, still unsettled with time to pay: the next click goes back to it . */
async function openCheckoutFor(db: Db, uid: string, plan: ProPlanKey, now: Date): Promise<string | null> {
  const [row] = await db
    .select({ url: proCheckouts.url })
    .from(proCheckouts)
    .where(
      and(
        eq(proCheckouts.uid, uid),
        eq(proCheckouts.plan, plan),
        isNull(proCheckouts.settledAt),
        isNotNull(proCheckouts.url),
        gt(proCheckouts.expiresAt, new Date(now.getTime() + REUSE_MIN_REMAINING_MS)),
      ),
    )
    .orderBy(desc(proCheckouts.created))
    .limit(1);
  return row?.url ?? null;
}

/**
 * SPEC §7.1 buildProSession: a hosted checkout for one plan: a subscription
 * for Launchpad and Star Power, a one-time payment for Limitless. The
 * person's open checkout for the same plan is handed out again; otherwise
 * the click is one pro_checkouts row, whose id is the provider call's
 * idempotency key, keeping the page's address and closing time for reuse.
 */
export async function buildProSession(
  db: Db,
  provider: PaymentProvider,
  input: { uid: string; email: string; plan: ProPlanKey; returnTo: string; publicOrigin: string; now?: Date },
): Promise<ProSessionResult> {
  const status = await getProStatus(db, input.uid, input.now);
  const rule = proPurchaseRule(status, input.plan);
  if (rule === "ALREADY") {
    return domainError("aborted", status.plan === "limitless" ? "You are a Limitless Pro: your membership never ends." : `You already have ${PRO_PLANS[input.plan].name}.`);
  }
  if (rule === "SWITCH_IN_PORTAL") return success({ destination: "portal" });
  const now = input.now ?? new Date();
  const open = await openCheckoutFor(db, input.uid, input.plan, now);
  if (open) return success({ destination: "checkout", url: open });
  try {
    const [priceIds, customerId] = await Promise.all([proPriceIds(provider), ensureBillingCustomer(db, provider, { uid: input.uid, email: input.email })]);
    const [row] = await db.insert(proCheckouts).values({ uid: input.uid, plan: input.plan }).returning({ id: proCheckouts.id });
    const created = await provider.createProCheckout({
      idempotencyKey: `pro_checkout_${row!.id}`,
      customerId,
      uid: input.uid,
      plan: input.plan,
      priceId: priceIds[input.plan],
      mode: PRO_PLANS[input.plan].interval === null ? "payment" : "subscription",
      ...proReturnUrls(input.publicOrigin, input.returnTo),
    });
    await db.update(proCheckouts).set({ providerCheckoutId: created.checkoutId, url: created.url, expiresAt: created.expiresAt }).where(eq(proCheckouts.id, row!.id));
    return success({ destination: "checkout", url: created.url });
  } catch {
    return domainError("unavailable", "The checkout could not be opened. Please try again in a moment.");
  }
}
