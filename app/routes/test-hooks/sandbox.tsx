import crypto from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { data } from "react-router";
import { sandboxCheckouts, sandboxEvents, sandboxPayments } from "#server/payments/sandbox/schema";
import { sandboxFor } from "#server/payments/sandbox/runtime";
import type { Route } from "./+types/sandbox";

/**
 * End-to-end helper (ENABLE_TEST_ROUTES only, behind the loopback + secret
 * guard): calls the sandbox provider directly, as the payments screens will
 * (issue 15, later session), so a spec can drive the sandbox's own pages.
 * - `?do=account`: a new account and its onboarding link (returns to /sandbox?onboarded=1);
 * - `?do=checkout&amount=2500`: a new onboarded account and a checkout for it;
 * - `?do=login&account=acct_sbx_…`: a payouts dashboard link;
 * - `?do=dispute&payment=pi_sbx_…`: the sponsor's bank disputes the payment (`dispute.created`);
 * - `?do=state&checkout=cs_sbx_…`: the checkout's status, its payments, and its events with their delivery attempts.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (!context.config.ENABLE_TEST_ROUTES) throw data(null, { status: 404 });
  const sandbox = sandboxFor(context);
  const origin = context.config.PUBLIC_ORIGIN;
  const params = new URL(request.url).searchParams;
  const key = crypto.randomUUID();
  const newAccount = () =>
    sandbox.createConnectedAccount({ idempotencyKey: `account_${key}`, email: `creator-${key.slice(0, 8)}@example.com`, accountType: "individual", uid: `e2e-${key}` });

  switch (params.get("do")) {
    case "account": {
      const { accountId } = await newAccount();
      const { url } = await sandbox.createOnboardingLink({ accountId, returnUrl: `${origin}/sandbox?onboarded=1`, refreshUrl: `${origin}/sandbox?refresh=1` });
      return Response.json({ accountId, url });
    }
    case "checkout": {
      const { accountId } = await newAccount();
      await sandbox.completeOnboarding(accountId, { legalName: "Maya Makes LLC", country: "US", bankAccount: "000123456789" });
      const created = await sandbox.createSponsorCheckout({
        idempotencyKey: `checkout_${key}`,
        sessionId: `e2e_${key}`,
        destinationAccountId: accountId,
        amount: Number(params.get("amount") ?? 2500),
        currency: "usd",
        applicationFeeAmount: 0,
        productName: "Tip for Maya Makes",
        sponsorEmail: params.get("email"),
        successUrl: `${origin}/sandbox?paid={CHECKOUT_SESSION_ID}`,
        cancelUrl: `${origin}/sandbox?cancelled=1`,
      });
      return Response.json({ accountId, ...created });
    }
    case "login":
      return Response.json(await sandbox.createLoginLink({ accountId: params.get("account") ?? "" }));
    case "dispute":
      return Response.json(await sandbox.openDispute({ paymentIntentId: params.get("payment") ?? "" }));
    case "state": {
      const id = params.get("checkout") ?? "";
      const [checkout] = await context.db.select().from(sandboxCheckouts).where(eq(sandboxCheckouts.id, id));
      if (!checkout) throw data(null, { status: 404 });
      const payments = await context.db.select().from(sandboxPayments).where(eq(sandboxPayments.checkoutId, id));
      const events = await context.db
        .select({ type: sandboxEvents.type, attempts: sandboxEvents.attempts, delivered: sql<boolean>`${sandboxEvents.deliveredAt} is not null` })
        .from(sandboxEvents)
        .where(sql`${sandboxEvents.payload}->>'checkoutId' = ${id}`);
      return Response.json({ status: checkout.status, payments: payments.map((p) => ({ id: p.id, amount: p.amount, fee: p.fee, net: p.net })), events });
    }
    default:
      throw data("Unknown ?do=", { status: 400 });
  }
}
