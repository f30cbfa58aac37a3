import { expireDueMembershipCheckouts, sandboxMembershipBilling } from "./memberships";
import { membershipCardLink } from "./membership-pay";
import { advanceSandboxMemberships, type AdvanceMembershipsInput, type MembershipClockReport } from "./membership-clock";
import type { PayeeCheck } from "./pay";
import { pagesOnOwnOrigin, type HostedPages } from "#server/providers/payments/hosted-pages";
import type { Logger } from "pino";
import type { Config } from "#server/platform/config";
import type { Db } from "#server/platform/db/client";
import { success } from "#server/platform/errors";
import { paymentEventSchema } from "#server/providers/payments/events";
import { badSignature, notJson, type PaymentProvider } from "#server/providers/payments/port";
import { listSandboxBalanceTransactions } from "./balance-transactions";
import { createSandboxCustomer, createSandboxProCheckout, endSandboxSubscription, ensureSandboxPrices, findSandboxCustomer, readSandboxProState } from "./billing";
import { completeSandboxOnboarding, createSandboxAccount, findSandboxAccount, issueOnboardingLinkId, readSandboxAccount } from "./accounts";
import { createSandboxCheckout, createSandboxHeldCheckout, expireDueCheckouts } from "./checkouts";
import { deleteSandboxAccount, deleteSandboxCustomer } from "./deletion";
import { closeSandboxDispute, type DisputeOutcome, type DisputeReason, disputeSandboxPayment } from "./disputes";
import { SandboxRequestError, missing } from "./errors";
import { loginLink, onboardingLink } from "./links";
import { createSandboxOutbox, type SandboxOutbox } from "./outbox";
import { portalLink } from "./portal";
import { listSandboxRefunds, refundHeldSandboxPayment, refundSandboxPayment, sandboxPaymentDetails } from "./refunds";
import { createSandboxTransfer } from "./transfers";
import { linkSigningKey, verifySignature, webhookSigningKey } from "./signing";

/** Where the sandbox delivers its events: the same kind of endpoint Stripe's go to. */
export const SANDBOX_WEBHOOK_PATH = "/api/payments/webhooks/sandbox";

export type SandboxProviderOptions = {
  db: Db;
  config: Pick<Config, "PUBLIC_ORIGIN">;
  sessionSecret: string;
  /** Delivers the events (tests pass their own); the global fetch otherwise. */
  fetch?: typeof fetch;
  logger?: Pick<Logger, "info" | "warn" | "error">;
  /** The sandbox's clock (tests move it to expire checkouts and age signatures). */
  now?: () => Date;
  retryDelaysMs?: readonly number[];
  /** Asked before a checkout is paid: why its payee cannot be paid now, or null (the app's rule; EVERY_PAYEE_PAYABLE only where no app stands behind the sandbox). */
  whyPayeeCannotBePaid: PayeeCheck;
  /** Where events go; `${PUBLIC_ORIGIN}/api/payments/webhooks/sandbox` unless a test says otherwise. */
  webhookUrl?: string;
};

export type SandboxProvider = PaymentProvider & {
  readonly name: "sandbox";
  readonly origin: string;
  readonly linkKey: string;
  readonly outbox: SandboxOutbox;
  readonly now: () => Date;
  readonly whyPayeeCannotBePaid: PayeeCheck;
  /** Sends every stored event that is due now; how many were delivered. */
  deliverPendingSandboxEvents(): Promise<number>;
  /**
   * Expires open checkouts past their time (each stores `checkout.expired` once). Periodic work
   * (server/main/scheduled-jobs.ts) calls it once a minute across all processes.
   */
  expireDueCheckouts(): Promise<number>;
  /**
   * The sandbox's onboarding form was sent through the link `linkId` (the
   * onboarding page), or directly (test hooks): null when that link was
   * already used or replaced by a newer one.
   */
  completeOnboarding: (accountId: string, details: Parameters<typeof completeSandboxOnboarding>[2], linkId?: string) => ReturnType<typeof completeSandboxOnboarding>;
  /**
   * The membership test clock (./membership-clock.ts): the subscription named moves on by one period,
   * or every running one whose period ends by `until`, or every running one by one period.
   */
  advanceMemberships(input: AdvanceMembershipsInput): Promise<MembershipClockReport>;
  /**
   * What Stripe does by itself as real time passes: every running membership subscription whose
   * period has ended by now moves on (renews, fails, ends). Periodic work may call it once a minute;
   * without it a sandbox subscription moves only when the test clock is advanced.
   */
  renewDueMemberships(): Promise<MembershipClockReport>;
  /** The sponsor's bank disputes a payment (dashboard, tests, demos): stores `dispute.changed` needs_response. */
  openDispute(input: { paymentIntentId: string; reason?: DisputeReason }): Promise<{ disputeId: string }>;
  /** The bank decides the payment's dispute: stores `dispute.changed` won or lost. */
  closeDispute(input: { paymentIntentId: string; outcome: DisputeOutcome }): Promise<{ disputeId: string }>;
  /** Starts the event delivery worker in this process (the job platform does, and closes it). */
  start(): void;
  close(): Promise<void>;
};

const KNOWN_TYPES: ReadonlySet<string> = new Set(paymentEventSchema.options.map((option) => option.shape.type.value));

/**
 * Its pages a browser is sent to, on our own origin: a sponsor's checkout; Pro's checkout and portal;
 * a membership's checkout (a checkout, and a billing page as Stripe's subscription checkout is) and card page.
 */
const SANDBOX_PAGES = {
  checkout: /^\/sandbox\/(checkout|membership-checkout)\/[A-Za-z0-9_]+$/,
  billing: /^\/sandbox\/(pro-checkout|portal|membership-checkout|membership-card)\/[A-Za-z0-9_]+$/,
};

export function sandboxHostedPages(publicOrigin: string): HostedPages {
  return pagesOnOwnOrigin(publicOrigin, SANDBOX_PAGES);
}

/**
 * The built-in payment provider (DESIGN §5): Stripe's behaviour, offline.
 * Its pages live under /sandbox/… in this app; its events go, signed, to our
 * own webhook endpoint through a database outbox, so the same handlers run
 * as with Stripe.
 */
export function createSandboxProvider(options: SandboxProviderOptions): SandboxProvider {
  const { db, config, sessionSecret } = options;
  const origin = config.PUBLIC_ORIGIN;
  const now = options.now ?? (() => new Date());
  const webhookKey = webhookSigningKey(sessionSecret);
  const linkKey = linkSigningKey(sessionSecret);
  const outbox = createSandboxOutbox({
    db,
    endpoint: options.webhookUrl ?? `${origin}${SANDBOX_WEBHOOK_PATH}`,
    signingKey: webhookKey,
    fetch: options.fetch,
    logger: options.logger,
    retryDelaysMs: options.retryDelaysMs,
    now,
  });

  return {
    name: "sandbox",
    displayName: "Sandbox",
    hostedPages: sandboxHostedPages(origin),
    moneyMode: "test",
    // Signed as Stripe signs, under a name of its own.
    signatureHeader: "sandbox-signature",
    origin,
    linkKey,
    outbox,
    now,
    whyPayeeCannotBePaid: options.whyPayeeCannotBePaid,

    createConnectedAccount: (input) => createSandboxAccount(db, input),
    async createOnboardingLink(input) {
      if (!(await findSandboxAccount(db, input.accountId))) throw missing("account", input.accountId);
      const linkId = await issueOnboardingLinkId(db, input.accountId);
      return { url: onboardingLink(origin, linkKey, { ...input, linkId }, now()) };
    },
    async createLoginLink({ accountId }) {
      const account = await findSandboxAccount(db, accountId);
      if (!account) throw missing("account", accountId);
      if (!account.detailsSubmitted) throw new SandboxRequestError("account_not_ready", "Cannot create a login link for an account that has not completed onboarding.");
      return { url: loginLink(origin, linkKey, accountId, now()) };
    },
    readAccount: (accountId) => readSandboxAccount(db, accountId),
    deleteConnectedAccount: ({ accountId }) => deleteSandboxAccount(db, accountId),
    async deleteCustomer({ customerId }) {
      await deleteSandboxCustomer(db, customerId, now());
      outbox.kick();
    },
    async createSponsorCheckout(input) {
      return createSandboxCheckout(db, origin, input, now());
    },
    paymentDetails: (paymentIntentId) => sandboxPaymentDetails(db, paymentIntentId),
    listBalanceTransactions: (period) => listSandboxBalanceTransactions(db, period),
    async refundPayment(input) {
      const refund = await refundSandboxPayment(db, input, now());
      outbox.kick();
      return refund;
    },
    // A deal's held payment: ./checkouts.ts, ./transfers.ts, ./refunds.ts.
    createHeldCheckout: (input) => createSandboxHeldCheckout(db, origin, input, now()),
    createTransfer: (input) => createSandboxTransfer(db, input, now()),
    async refundHeldPayment(input) {
      const refund = await refundHeldSandboxPayment(db, input, now());
      outbox.kick();
      return refund;
    },
    listRefunds: (paymentIntentId) => listSandboxRefunds(db, paymentIntentId),
    // Memberships: ./memberships.ts, ./membership-pay.ts (its pages' work), ./membership-clock.ts (the test clock).
    ...sandboxMembershipBilling({ db, origin, now, kick: () => outbox.kick(), cardLink: (input, at) => membershipCardLink(origin, linkKey, input, at) }),
    async advanceMemberships(input) {
      const report = await advanceSandboxMemberships(db, input, now());
      outbox.kick();
      return report;
    },
    async renewDueMemberships() {
      const at = now();
      const report = await advanceSandboxMemberships(db, { until: at }, at);
      if (report.renewed + report.failed + report.ended > 0) outbox.kick();
      return report;
    },
    async completeOnboarding(accountId, details, linkId) {
      const state = await completeSandboxOnboarding(db, accountId, details, now(), linkId);
      if (state) outbox.kick();
      return state;
    },

    async openDispute(input) {
      const dispute = await disputeSandboxPayment(db, input, now());
      outbox.kick();
      return dispute;
    },
    async closeDispute(input) {
      const dispute = await closeSandboxDispute(db, input, now());
      outbox.kick();
      return dispute;
    },

    // Pro billing: server/providers/payments/sandbox/billing.ts, pro-pay.ts, portal.ts.
    ensureProPrices: (plans) => ensureSandboxPrices(db, plans),
    createCustomer: (input) => createSandboxCustomer(db, input),
    createProCheckout: (input) => createSandboxProCheckout(db, origin, input, now()),
    async createPortalLink(input) {
      if (!(await findSandboxCustomer(db, input.customerId))) throw missing("customer", input.customerId);
      return { url: portalLink(origin, linkKey, input, now()) };
    },
    readProState: (customerId) => readSandboxProState(db, customerId),
    async endSubscription(input) {
      await endSandboxSubscription(db, input, now());
      outbox.kick();
    },

    parseWebhook(rawBody, signatureHeader) {
      const verified = verifySignature(webhookKey, rawBody, signatureHeader, Math.floor(now().getTime() / 1000));
      if (verified.kind === "ERROR") return verified;
      let body: unknown;
      try {
        body = JSON.parse(rawBody.toString("utf8"));
      } catch {
        return notJson("The signed body is not JSON");
      }
      const type = (body as { type?: unknown } | null)?.type;
      if (typeof type !== "string" || !KNOWN_TYPES.has(type)) return success({ event: null });
      const parsed = paymentEventSchema.safeParse(body);
      if (!parsed.success || parsed.data.provider !== "sandbox") return badSignature("The signed body is not a sandbox event");
      return success({ event: parsed.data });
    },

    deliverPendingSandboxEvents: () => outbox.deliverDue(),
    expireDueCheckouts: async () => {
      const expired = (await expireDueCheckouts(db, now())) + (await expireDueMembershipCheckouts(db, now()));
      // Their checkout.expired events go now rather than on the outbox's next poll.
      if (expired > 0) outbox.kick();
      return expired;
    },
    start: () => outbox.start(),
    close: () => outbox.close(),
  };
}
