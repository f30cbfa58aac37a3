import crypto from "node:crypto";
import { eq, inArray, sql } from "drizzle-orm";
import { Router } from "express";
import { createBioPage, listOwnPages } from "#server/domains/bio/pages";
import { connectedAccounts, ledgerEntries, profiles, refundRequests, sponsorSessions } from "#server/platform/db/schema";
import { sandboxCheckouts, sandboxEvents, sandboxPayments, sandboxRefunds } from "#server/providers/payments/sandbox/schema";
import { notificationDepsOf } from "#server/domains/notifications/deps";
import { buildSponsorSession } from "#server/domains/payments/checkout/sponsor-session";
import { getOrCreateConnectedAccount } from "#server/domains/payments/payouts/connect";
import { payCheckout } from "#server/providers/payments/sandbox/pay";
import type { SandboxProvider } from "#server/providers/payments/sandbox/provider";
import { sandboxFor } from "#server/providers/payments/sandbox/runtime";
import type {
  PaymentsAnswer,
  SandboxAccountAnswer,
  SandboxCheckoutAnswer,
  SandboxCheckoutState,
  SandboxLoginAnswer,
  SponsorPaymentsMade,
  SponsorSessionState,
} from "./contract";
import { HOOK_PATHS } from "./contract";
import { boundedInt, hook, HookRefusal, queryOf, signedInUser, type TestHooksDeps } from "./http";

const MAX_PAYMENTS = 10;
const TEST_CARD = { number: "4242 4242 4242 4242", expiry: "12 / 40", cvc: "123", postalCode: "10001" };

/** Delivers the sandbox's pending events through our webhook endpoint until `done`, or gives up with a 504. */
async function deliverUntil(sandbox: SandboxProvider, done: () => Promise<boolean>, tries: number, what: string): Promise<void> {
  for (let attempt = 0; attempt < tries; attempt++) {
    await sandbox.deliverPendingSandboxEvents();
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new HookRefusal(504, what);
}

/**
 * Payments along the real path: the sandbox provider, our webhook endpoint and
 * the domain functions the screens call. Reads of the sandbox's own state are
 * for the specs to check what it did.
 * - `payments` (signed in): `ready=true` makes a complete payout account the way a
 *   person does (Connect → the sandbox's onboarding → its `account.updated` event
 *   through our webhook) and answers once the profile takes payments.
 *   `enabled=true|false` only flips the profile's payments_enabled, with no payout
 *   account: a state the product never makes by itself (account-state.ts writes it
 *   from the provider's word), kept so a bio page form spec can offer sponsorship
 *   options without a provider round trip. The one direct write of this router.
 * - `sponsor-payments` (signed in, payout account ready; `name`, `private`: what each supporter gives): N sponsorships paid along the
 *   real path (buildSponsorSession → the sandbox checkout paid with the 4242 card → its
 *   `checkout.completed` through our webhook) and M left unpaid; or one session of the
 *   signed-in owner with its ledger, refund request and the sandbox's refunds.
 * - `sandbox`: the provider called directly, as the payments screens call it, so a spec
 *   can drive the sandbox's own pages (account, checkout, login, dispute, state).
 */
export function paymentHooks(deps: TestHooksDeps): Router {
  const router = Router();
  const sandbox = () => {
    if (deps.payments.name !== "sandbox") throw new HookRefusal(409, "Only with the sandbox provider");
    return sandboxFor(deps);
  };

  router.get(
    HOOK_PATHS.payments,
    hook(async (req): Promise<PaymentsAnswer> => {
      const me = await signedInUser(req, deps);
      const query = queryOf(req);
      if (query.get("ready") === "true") {
        const provider = sandbox();
        const origin = deps.config.PUBLIC_ORIGIN;
        const connected = await getOrCreateConnectedAccount(deps.db, deps.payments, { uid: me.id, email: me.email, accountType: "individual", origin }, notificationDepsOf(deps));
        if (connected.kind === "ERROR") throw new HookRefusal(502, connected.message);
        const [account] = await deps.db.select().from(connectedAccounts).where(eq(connectedAccounts.uid, me.id));
        if (connected.outcome !== "EXISTING_COMPLETE" && account?.providerAccountId) {
          await provider.completeOnboarding(account.providerAccountId, { legalName: me.name || "E2E Creator", country: "US", bankAccount: "000123456789" });
        }
        const enabled = async () => {
          const [profile] = await deps.db.select({ enabled: profiles.paymentsEnabled }).from(profiles).where(eq(profiles.uid, me.id));
          return profile?.enabled === true;
        };
        await deliverUntil(provider, enabled, 50, "The account did not become complete");
        return { uid: me.id, accountId: account?.providerAccountId, paymentsEnabled: true };
      }
      const paymentsEnabled = query.get("enabled") !== "false";
      await deps.db.insert(profiles).values({ uid: me.id, paymentsEnabled }).onConflictDoUpdate({ target: profiles.uid, set: { paymentsEnabled } });
      return { uid: me.id, paymentsEnabled };
    }),
  );

  router.get(
    HOOK_PATHS.sponsorPayments,
    hook(async (req): Promise<SponsorPaymentsMade | SponsorSessionState> => {
      const me = await signedInUser(req, deps);
      const provider = sandbox();
      const db = deps.db;
      const query = queryOf(req);

      const asked = query.get("session");
      if (asked) {
        const [session] = await db.select().from(sponsorSessions).where(eq(sponsorSessions.id, asked));
        if (!session || session.posterUid !== me.id) throw new HookRefusal(404, "No such session of yours");
        const entries = await db
          .select({ kind: ledgerEntries.kind, gross: ledgerEntries.gross, providerFee: ledgerEntries.providerFee, providerReference: ledgerEntries.providerReference })
          .from(ledgerEntries).where(eq(ledgerEntries.sessionId, asked));
        const [refund] = await db.select({ status: refundRequests.status, attempt: refundRequests.attempt }).from(refundRequests).where(eq(refundRequests.sessionId, asked));
        const refunds = session.paymentIntentId ? await db.select({ id: sandboxRefunds.id }).from(sandboxRefunds).where(eq(sandboxRefunds.paymentId, session.paymentIntentId)) : [];
        return { status: session.status, paymentIntentId: session.paymentIntentId, entries, refundRequest: refund ?? null, sandboxRefunds: refunds.length };
      }

      const paid = boundedInt(query.get("paid"), 0, 0, MAX_PAYMENTS);
      const pending = boundedInt(query.get("pending"), 0, 0, MAX_PAYMENTS);
      const amount = Number(query.get("amount") ?? 2500);
      // The name each supporter gives and whether they ask to stay private, as the checkout form sends them.
      const supporterName = query.get("name") ?? undefined;
      const keptPrivate = query.get("private") === "true";
      let [page] = await listOwnPages(db, me.id);
      if (!page) {
        const created = await createBioPage(db, { uid: me.id }, { name: `${me.name || "E2E"} Page`, customEnding: "", blurb: "Tips welcome.", links: [], sponsorships: [] });
        if (created.kind === "ERROR") throw new HookRefusal(500, created.message);
        [page] = await listOwnPages(db, me.id);
      }
      const ending = page!.customEnding;
      const key = crypto.randomBytes(4).toString("hex");
      const make = async (index: number, pay: boolean) => {
        const sponsorEmail = `fan-${key}-${index}@sponsor.example`;
        // The server's own caller (client null): no rate limit, no reuse; a test asks for at most MAX_PAYMENTS.
        const built = await buildSponsorSession(
          db,
          deps.payments,
          { ending, kind: "tip", amount, sponsorEmail, message: `Thanks for everything #${index}`, supporterName, private: keptPrivate, sponsorUid: null, client: null },
          { platformFeePercent: deps.config.PLATFORM_FEE_PERCENT, publicOrigin: deps.config.PUBLIC_ORIGIN },
        );
        if (built.kind === "ERROR") throw new HookRefusal(409, built.message);
        if (pay) {
          const [row] = await db.select({ checkoutId: sponsorSessions.providerCheckoutId }).from(sponsorSessions).where(eq(sponsorSessions.id, built.sessionId));
          // What the sandbox's checkout page does when the sponsor submits the 4242 card.
          const result = await payCheckout(db, row!.checkoutId!, { email: sponsorEmail, ...TEST_CARD }, provider.now(), provider.whyPayeeCannotBePaid);
          if (result.kind !== "SUCCESS" || result.outcome !== "PAID") throw new HookRefusal(500, `The checkout was not paid: ${result.kind === "SUCCESS" ? result.outcome : result.message}`);
        }
        return built.sessionId;
      };
      const paidIds: string[] = [];
      const pendingIds: string[] = [];
      // One after another, so "newest first" has a defined order.
      for (let i = 0; i < paid; i++) paidIds.push(await make(i, true));
      for (let i = 0; i < pending; i++) pendingIds.push(await make(paid + i, false));
      const completed = async () => {
        const rows = paidIds.length === 0 ? [] : await db.select({ status: sponsorSessions.status }).from(sponsorSessions).where(inArray(sponsorSessions.id, paidIds));
        return rows.every((r) => r.status === "completed");
      };
      await deliverUntil(provider, completed, 100, "The payments did not complete");
      return { ending, paid: paidIds, pending: pendingIds };
    }),
  );

  router.get(
    HOOK_PATHS.sandbox,
    hook(async (req): Promise<SandboxAccountAnswer | SandboxCheckoutAnswer | SandboxLoginAnswer | SandboxCheckoutState | unknown> => {
      const provider = sandboxFor(deps);
      const origin = deps.config.PUBLIC_ORIGIN;
      const query = queryOf(req);
      const key = crypto.randomUUID();
      const newAccount = () =>
        provider.createConnectedAccount({ idempotencyKey: `account_${key}`, email: `creator-${key.slice(0, 8)}@example.com`, accountType: "individual", uid: `e2e-${key}` });
      switch (query.get("do")) {
        case "account": {
          const { accountId } = await newAccount();
          const { url } = await provider.createOnboardingLink({ accountId, returnUrl: `${origin}/sandbox?onboarded=1`, refreshUrl: `${origin}/sandbox?refresh=1` });
          return { accountId, url };
        }
        case "checkout": {
          const { accountId } = await newAccount();
          await provider.completeOnboarding(accountId, { legalName: "Maya Makes LLC", country: "US", bankAccount: "000123456789" });
          const created = await provider.createSponsorCheckout({
            idempotencyKey: `checkout_${key}`,
            sessionId: `e2e_${key}`,
            destinationAccountId: accountId,
            amount: Number(query.get("amount") ?? 2500),
            currency: "usd",
            applicationFeeAmount: 0,
            productName: "Tip for Maya Makes",
            sponsorEmail: query.get("email"),
            successUrl: `${origin}/sandbox?paid={CHECKOUT_SESSION_ID}`,
            cancelUrl: `${origin}/sandbox?cancelled=1`,
          });
          return { accountId, ...created };
        }
        case "membership-checkout": {
          // A membership's checkout to a new onboarded account, as the join page will open one.
          const { accountId } = await newAccount();
          await provider.completeOnboarding(accountId, { legalName: "Maya Makes LLC", country: "US", bankAccount: "000123456789" });
          const created = await provider.createMembershipCheckout({
            idempotencyKey: `membership_checkout_${key}`,
            membershipId: `e2e_${key}`,
            destinationAccountId: accountId,
            amount: Number(query.get("amount") ?? 500),
            currency: "usd",
            interval: query.get("interval") === "year" ? "year" : "month",
            applicationFeePercent: 10,
            productName: "Gold membership · Maya Makes",
            memberEmail: query.get("email"),
            successUrl: `${origin}/sandbox?joined={CHECKOUT_SESSION_ID}`,
            cancelUrl: `${origin}/sandbox?cancelled=1`,
          });
          return { accountId, ...created };
        }
        case "membership-state": {
          // The subscription a membership checkout made, as the provider reports it (null while unpaid), and a link to its card page.
          const subscriptionId = await provider.membershipSubscriptionOfCheckout(query.get("checkout") ?? "");
          if (!subscriptionId) return { subscriptionId: null, state: null, cardUrl: null };
          const state = await provider.readMembershipState(subscriptionId);
          const { url } = await provider.createMembershipCardLink({ customerId: state.customerId, subscriptionId, returnUrl: `${origin}/sandbox?card=1` });
          return { subscriptionId, state, cardUrl: url };
        }
        case "login":
          return provider.createLoginLink({ accountId: query.get("account") ?? "" });
        case "dispute": {
          // outcome: absent or "open" opens the dispute; "won" / "lost" closes the payment's dispute so.
          const paymentIntentId = query.get("payment") ?? "";
          const outcome = query.get("outcome") ?? "open";
          if (outcome === "won" || outcome === "lost") return provider.closeDispute({ paymentIntentId, outcome });
          if (outcome !== "open") throw new HookRefusal(400, "outcome is open, won or lost");
          return provider.openDispute({ paymentIntentId });
        }
        case "state": {
          const id = query.get("checkout") ?? "";
          const [checkout] = await deps.db.select().from(sandboxCheckouts).where(eq(sandboxCheckouts.id, id));
          if (!checkout) throw new HookRefusal(404, "No such checkout");
          const payments = await deps.db.select().from(sandboxPayments).where(eq(sandboxPayments.checkoutId, id));
          const events = await deps.db
            .select({ type: sandboxEvents.type, attempts: sandboxEvents.attempts, delivered: sql<boolean>`${sandboxEvents.deliveredAt} is not null` })
            .from(sandboxEvents)
            .where(sql`${sandboxEvents.payload}->>'checkoutId' = ${id}`);
          return { status: checkout.status, payments: payments.map((p) => ({ id: p.id, amount: p.amount, fee: p.fee, net: p.net })), events };
        }
        default:
          throw new HookRefusal(400, "Unknown ?do=");
      }
    }),
  );
  return router;
}
