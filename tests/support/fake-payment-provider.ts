import crypto from "node:crypto";
import { success } from "#server/errors";
import { paymentEventSchema } from "#server/payments/events";
import {
  badSignature,
  notJson,
  type AccountType,
  type CheckoutCreated,
  type ConnectedAccountState,
  type ParsedWebhook,
  type PaymentDetails,
  type PaymentProvider,
  type ProCheckoutInput,
  type ProPriceSpec,
  type ProviderProState,
  type RefundCreated,
  type SponsorCheckoutInput,
} from "#server/payments/provider";

/** Stripe's standard card pricing, as the sandbox also charges it: 2.9 % + 30 cents. */
export const fakeCardFee = (gross: number) => Math.round(gross * 0.029) + 30;

/**
 * An in-memory PaymentProvider for the domain tests: it keeps what a provider
 * would (accounts, checkouts, payments, refunds), honours idempotency keys as
 * Stripe does (same key, same answer, nothing created twice) and counts every
 * call, so a test can say "the provider saw exactly one refund". Webhooks are
 * signed as the sandbox signs them (HMAC-SHA256 over `${t}.${body}`).
 */
export class FakePaymentProvider implements PaymentProvider {
  readonly name = "sandbox" as const;
  readonly displayName = "Fake Pay";
  readonly webhookSecret = "fake-webhook-secret";

  readonly accounts = new Map<string, ConnectedAccountState>();
  readonly payments = new Map<string, { gross: number; currency: string }>();
  readonly calls = {
    createConnectedAccount: 0,
    createOnboardingLink: 0,
    createSponsorCheckout: [] as SponsorCheckoutInput[],
    paymentDetails: 0,
    refundPayment: [] as { idempotencyKey: string; paymentIntentId: string }[],
    ensureProPrices: 0,
    createCustomer: [] as { idempotencyKey: string; uid: string; email: string }[],
    createProCheckout: [] as ProCheckoutInput[],
    createPortalLink: 0,
    endSubscription: [] as { idempotencyKey: string; subscriptionId: string; when: "period_end" | "now" }[],
    readProState: 0,
  };
  /** Prices by lookup key, as ensureProPrices made them (never twice). */
  readonly prices = new Map<string, { priceId: string; spec: ProPriceSpec }>();
  /** What readProState answers for each customer; tests set it as the provider's truth. */
  readonly proStates = new Map<string, ProviderProState>();
  /** How long createCustomer takes, so concurrent callers overlap. */
  customerDelayMs = 0;
  /** Makes the next calls of a method throw, as a provider that is down would. */
  readonly failing = new Set<"readAccount" | "createConnectedAccount" | "createSponsorCheckout" | "refundPayment" | "paymentDetails" | "createProCheckout" | "readProState">();
  /** How long refundPayment takes, so concurrent callers overlap. */
  refundDelayMs = 0;

  private readonly byKey = new Map<string, unknown>();
  private counter = 0;

  private once<T>(key: string, make: () => T): T {
    if (!this.byKey.has(key)) this.byKey.set(key, make());
    return this.byKey.get(key) as T;
  }

  private id(prefix: string) {
    this.counter += 1;
    return `${prefix}_fake${this.counter}${crypto.randomBytes(3).toString("hex")}`;
  }

  private check(method: Parameters<typeof this.failing.add>[0]) {
    if (this.failing.has(method)) throw new Error(`fake provider: ${method} is down`);
  }

  /** What the provider would report for an account (tests change it as onboarding would). */
  setAccount(accountId: string, state: Partial<Omit<ConnectedAccountState, "accountId">>) {
    const current = this.accounts.get(accountId) ?? { accountId, chargesEnabled: false, payoutsEnabled: false, detailsSubmitted: false };
    this.accounts.set(accountId, { ...current, ...state });
  }

  /** A paid payment the provider knows of (its details come back from paymentDetails). */
  settlePayment(paymentIntentId: string, gross: number, currency = "usd") {
    this.payments.set(paymentIntentId, { gross, currency });
  }

  async createConnectedAccount(input: { idempotencyKey: string; email: string; accountType: AccountType; uid: string }) {
    this.calls.createConnectedAccount += 1;
    this.check("createConnectedAccount");
    return this.once(input.idempotencyKey, () => {
      const accountId = this.id("acct");
      this.setAccount(accountId, {});
      return { accountId };
    });
  }

  async createOnboardingLink(input: { accountId: string; returnUrl: string; refreshUrl: string }) {
    this.calls.createOnboardingLink += 1;
    const url = new URL(`https://fake-pay.example/onboarding/${input.accountId}`);
    url.searchParams.set("return_url", input.returnUrl);
    url.searchParams.set("refresh_url", input.refreshUrl);
    return { url: url.toString() };
  }

  async createLoginLink(input: { accountId: string }) {
    return { url: `https://fake-pay.example/dashboard/${input.accountId}` };
  }

  async readAccount(accountId: string): Promise<ConnectedAccountState> {
    this.check("readAccount");
    const account = this.accounts.get(accountId);
    if (!account) throw new Error(`fake provider: no account ${accountId}`);
    return { ...account };
  }

  async createSponsorCheckout(input: SponsorCheckoutInput): Promise<CheckoutCreated> {
    this.calls.createSponsorCheckout.push(input);
    this.check("createSponsorCheckout");
    return this.once(input.idempotencyKey, () => {
      const checkoutId = this.id("cs");
      return { checkoutId, url: `https://fake-pay.example/checkout/${checkoutId}`, expiresAt: new Date(Date.now() + 24 * 3600_000) };
    });
  }

  async paymentDetails(paymentIntentId: string): Promise<PaymentDetails> {
    this.calls.paymentDetails += 1;
    this.check("paymentDetails");
    const payment = this.payments.get(paymentIntentId);
    if (!payment) throw new Error(`fake provider: no payment ${paymentIntentId}`);
    return { paymentIntentId, chargeId: `ch_${paymentIntentId}`, gross: payment.gross, providerFee: fakeCardFee(payment.gross), currency: payment.currency };
  }

  async refundPayment(input: { idempotencyKey: string; paymentIntentId: string }): Promise<RefundCreated> {
    this.calls.refundPayment.push(input);
    if (this.refundDelayMs) await new Promise((resolve) => setTimeout(resolve, this.refundDelayMs));
    this.check("refundPayment");
    return this.once(input.idempotencyKey, () => ({ refundId: this.id("re"), status: "pending" as const }));
  }

  async ensureProPrices(plans: readonly ProPriceSpec[]) {
    this.calls.ensureProPrices += 1;
    const ids = {} as Awaited<ReturnType<PaymentProvider["ensureProPrices"]>>;
    for (const spec of plans) {
      if (!this.prices.has(spec.lookupKey)) this.prices.set(spec.lookupKey, { priceId: this.id("price"), spec });
      ids[spec.plan] = this.prices.get(spec.lookupKey)!.priceId;
    }
    return ids;
  }

  /** What was closed at the provider, in order (account deletion). */
  readonly deleted: string[] = [];
  /** Makes deleteConnectedAccount / deleteCustomer refuse, as Stripe does for an account with a balance. */
  readonly refusingDeletes = new Set<"deleteConnectedAccount" | "deleteCustomer">();

  async deleteConnectedAccount({ accountId }: { accountId: string }) {
    if (this.refusingDeletes.has("deleteConnectedAccount")) throw new Error("fake provider: this account cannot be deleted because it has a non-zero balance");
    this.accounts.delete(accountId);
    this.deleted.push(accountId);
  }

  async deleteCustomer({ customerId }: { customerId: string }) {
    if (this.refusingDeletes.has("deleteCustomer")) throw new Error("fake provider: customer cannot be deleted");
    this.proStates.delete(customerId);
    this.deleted.push(customerId);
  }

  async createCustomer(input: { idempotencyKey: string; uid: string; email: string }) {
    this.calls.createCustomer.push(input);
    if (this.customerDelayMs) await new Promise((resolve) => setTimeout(resolve, this.customerDelayMs));
    return this.once(input.idempotencyKey, () => ({ customerId: this.id("cus") }));
  }

  async createProCheckout(input: ProCheckoutInput): Promise<CheckoutCreated> {
    this.calls.createProCheckout.push(input);
    this.check("createProCheckout");
    return this.once(input.idempotencyKey, () => {
      const checkoutId = this.id("cs");
      return { checkoutId, url: `https://fake-pay.example/pro-checkout/${checkoutId}`, expiresAt: new Date(Date.now() + 24 * 3600_000) };
    });
  }

  async createPortalLink(input: { customerId: string; returnUrl: string }) {
    this.calls.createPortalLink += 1;
    return { url: `https://fake-pay.example/portal/${input.customerId}?return=${encodeURIComponent(input.returnUrl)}` };
  }

  async readProState(customerId: string): Promise<ProviderProState> {
    this.calls.readProState += 1;
    this.check("readProState");
    return this.proStates.get(customerId) ?? { customerId, subscriptions: [], lifetimePurchase: null };
  }

  /** As the provider does: at period end sets the flag; now cancels it (and would refund its charge). */
  async endSubscription(input: { idempotencyKey: string; subscriptionId: string; when: "period_end" | "now" }): Promise<void> {
    this.calls.endSubscription.push(input);
    for (const [customerId, state] of this.proStates) {
      const subscriptions = state.subscriptions.map((sub) =>
        sub.subscriptionId !== input.subscriptionId
          ? sub
          : input.when === "now"
            ? { ...sub, status: "canceled" as const, currentPeriodEnd: new Date(), cancelAtPeriodEnd: false }
            : { ...sub, cancelAtPeriodEnd: true },
      );
      this.proStates.set(customerId, { ...state, subscriptions });
    }
  }

  /** The header a delivery of `body` carries, signed `secondsAgo` in the past. */
  sign(body: string, { secondsAgo = 0, secret = this.webhookSecret } = {}): string {
    const t = Math.floor(Date.now() / 1000) - secondsAgo;
    const v1 = crypto.createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
    return `t=${t},v1=${v1}`;
  }

  parseWebhook(rawBody: Buffer, signatureHeader: string | undefined): ParsedWebhook {
    const parts = new Map((signatureHeader ?? "").split(",").map((p) => p.split("=", 2) as [string, string]));
    const t = Number(parts.get("t"));
    const v1 = parts.get("v1") ?? "";
    if (!Number.isInteger(t) || !/^[0-9a-f]{64}$/.test(v1)) return badSignature("No valid signature");
    if (Math.abs(Date.now() / 1000 - t) > 300) return badSignature("The signature is too old");
    const expected = crypto.createHmac("sha256", this.webhookSecret).update(`${t}.`).update(rawBody).digest();
    if (!crypto.timingSafeEqual(expected, Buffer.from(v1, "hex"))) return badSignature("The signature does not match");
    let body: unknown;
    try {
      body = JSON.parse(rawBody.toString("utf8"));
    } catch {
      return notJson("The body is not JSON.");
    }
    const parsed = paymentEventSchema.safeParse(body);
    return success({ event: parsed.success ? parsed.data : null });
  }
}
