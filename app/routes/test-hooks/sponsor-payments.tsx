import crypto from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { data } from "react-router";
import { getSessionUser } from "#server/auth/session";
import { createBioPage, listOwnPages } from "#server/bio/pages";
import { ledgerEntries, refundRequests, sponsorSessions } from "#server/db/schema";
import { sandboxRefunds } from "#server/db/schema/sandbox";
import { buildSponsorSession } from "#server/payments/checkout";
import { payCheckout } from "#server/payments/sandbox/pay";
import { sandboxFor } from "#server/payments/sandbox/runtime";
import type { Route } from "./+types/sponsor-payments";

const MAX_PAYMENTS = 10;

/**
 * End-to-end helper (ENABLE_TEST_ROUTES only, behind the loopback + secret
 * guard), for the signed-in creator whose payout account is complete (first
 * `GET /__test/payments?ready=true`):
 * - `?paid=N&pending=M&amount=2500`: makes a bio page if they have none, then
 *   N payments along the real path — buildSponsorSession → the sandbox's
 *   checkout paid with the 4242 test card → its `checkout.completed` event
 *   through our webhook — and M checkouts left unpaid. Answers once the N are
 *   completed, with the session ids.
 * - `?session=ss_…`: that session (the signed-in owner's only) with its
 *   ledger, its refund request and how many refunds the sandbox made.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (!context.config.ENABLE_TEST_ROUTES) throw data(null, { status: 404 });
  const user = await getSessionUser(request, context);
  if (!user) throw data("Sign in first", { status: 401 });
  if (context.payments.name !== "sandbox") throw data("Only with the sandbox provider", { status: 409 });
  const sandbox = sandboxFor(context);
  const db = context.db;
  const params = new URL(request.url).searchParams;

  const asked = params.get("session");
  if (asked) {
    const [session] = await db.select().from(sponsorSessions).where(eq(sponsorSessions.id, asked));
    if (!session || session.posterUid !== user.id) throw data(null, { status: 404 });
    const entries = await db.select({ kind: ledgerEntries.kind, gross: ledgerEntries.gross }).from(ledgerEntries).where(eq(ledgerEntries.sessionId, asked));
    const [refund] = await db.select({ status: refundRequests.status, attempt: refundRequests.attempt }).from(refundRequests).where(eq(refundRequests.sessionId, asked));
    const refunds = session.paymentIntentId ? await db.select({ id: sandboxRefunds.id }).from(sandboxRefunds).where(eq(sandboxRefunds.paymentId, session.paymentIntentId)) : [];
    return Response.json({ status: session.status, entries, refundRequest: refund ?? null, sandboxRefunds: refunds.length });
  }

  const count = (name: string) => Math.min(MAX_PAYMENTS, Math.max(0, Math.floor(Number(params.get(name) ?? 0)) || 0));
  const paid = count("paid");
  const pending = count("pending");
  const amount = Number(params.get("amount") ?? 2500);

  let [page] = await listOwnPages(db, user.id);
  if (!page) {
    const created = await createBioPage(db, { uid: user.id }, { name: `${user.name || "E2E"} Page`, customEnding: "", blurb: "Tips welcome.", links: [], sponsorships: [] });
    if (created.kind === "ERROR") throw data(created.message, { status: 500 });
    [page] = await listOwnPages(db, user.id);
  }
  const ending = page!.customEnding;

  const key = crypto.randomBytes(4).toString("hex");
  const make = async (index: number, pay: boolean) => {
    const sponsorEmail = `fan-${key}-${index}@sponsor.example`;
    // The server's own caller (client null): no rate limit, no reuse; a test asks for at most MAX_PAYMENTS.
    const built = await buildSponsorSession(
      db,
      context.payments,
      { ending, kind: "tip", amount, sponsorEmail, message: `Thanks for everything #${index}`, sponsorUid: null, client: null },
      { platformFeePercent: context.config.PLATFORM_FEE_PERCENT, publicOrigin: context.config.PUBLIC_ORIGIN },
    );
    if (built.kind === "ERROR") throw data(built.message, { status: 409 });
    if (pay) {
      const [row] = await db.select({ checkoutId: sponsorSessions.providerCheckoutId }).from(sponsorSessions).where(eq(sponsorSessions.id, built.sessionId));
      // What the sandbox's checkout page does when the sponsor submits the 4242 card.
      const result = await payCheckout(db, row!.checkoutId!, { email: sponsorEmail, number: "4242 4242 4242 4242", expiry: "12 / 40", cvc: "123", postalCode: "10001" }, sandbox.now());
      if (result.kind !== "SUCCESS" || result.outcome !== "PAID") throw data(`The checkout was not paid: ${result.kind === "SUCCESS" ? result.outcome : result.reason}`, { status: 500 });
    }
    return built.sessionId;
  };
  const paidIds: string[] = [];
  const pendingIds: string[] = [];
  // One after another, so "newest first" has a defined order.
  for (let i = 0; i < paid; i++) paidIds.push(await make(i, true));
  for (let i = 0; i < pending; i++) pendingIds.push(await make(paid + i, false));

  // The checkout.completed events go through the webhook endpoint like any other.
  for (let attempt = 0; attempt < 100; attempt++) {
    await sandbox.deliverPendingSandboxEvents();
    const rows = paidIds.length === 0 ? [] : await db.select({ status: sponsorSessions.status }).from(sponsorSessions).where(inArray(sponsorSessions.id, paidIds));
    if (rows.every((r) => r.status === "completed")) return Response.json({ ending, paid: paidIds, pending: pendingIds });
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw data("The payments did not complete", { status: 504 });
}
