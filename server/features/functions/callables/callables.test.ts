import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { proCheckouts, refundRequests, sponsorSessions, user } from "#server/platform/db/schema";
import { ensureBillingCustomer } from "#server/domains/pro/customers";
import { stripeStandardFee } from "#server/providers/payments/sandbox/fees";
import type { PaymentProvider } from "#server/providers/payments/port";
import { loginLink } from "#server/providers/payments/sandbox/links";
import { portalLink } from "#server/providers/payments/sandbox/portal";
import { CALLABLE_ORIGIN, CROSS_SITE, serveCallables, type Caller } from "#tests/support/callables";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { events, payAtSandbox, seedPayee, seedSession, webhookDeps, type Payee, type SeededSession } from "#tests/support/payments";
import { receivePaymentEvent } from "#server/features/payment-webhooks/intake";
import { testSandbox } from "#tests/support/test-sandbox";
import { recordingCalls } from "#tests/support/test-sandbox-extras";

/** SPEC §7.1's payment callables through the functions protocol (SPEC §8 statuses), on each engine. */
describe.each(ENGINES)("SPEC §7.1 payment callables on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;
  const clock = { now: new Date() };
  const sandbox = testSandbox(database, clock);
  // The sandbox behind the callables, with its calls written down.
  let provider: PaymentProvider;
  let seen: ReturnType<typeof recordingCalls>["seen"];
  let served: Awaited<ReturnType<typeof serveCallables>>;
  const call = (name: string, data: unknown, options?: Parameters<typeof served.call>[2]) => served.call(name, data, options);

  beforeEach(async () => {
    ({ provider, seen } = recordingCalls(sandbox.provider));
    served = await serveCallables(db(), provider);
  });
  afterEach(() => served.close());

  const callerOf = (payee: Payee): Caller => ({ id: payee.uid, email: `${payee.uid}@pay.example`, emailVerified: true });
  async function newPerson(prefix: string, emailVerified = true): Promise<NonNullable<Caller>> {
    const id = `${prefix}_${crypto.randomBytes(5).toString("hex")}`;
    await db().insert(user).values({ id, name: id, email: `${id}@callable.example`, emailVerified });
    return { id, email: `${id}@callable.example`, emailVerified };
  }
  /** A completed payment to `payee`, through the webhook. */
  async function paid(payee: Payee, options: { amount?: number; platformFee?: number } = {}): Promise<SeededSession> {
    const s = await payAtSandbox(db(), sandbox.provider, payee, await seedSession(db(), payee, options));
    await receivePaymentEvent(db(), events.checkout("checkout.completed", s), webhookDeps(db(), provider));
    return s;
  }
  const unverified = { status: 403, body: { error: { status: "PERMISSION_DENIED", message: "Verify your email address first." } } };
  const signedOut = { status: 401, body: { error: { status: "UNAUTHENTICATED", message: "Sign in first." } } };
  const crossSite = { status: 403, body: { error: { status: "PERMISSION_DENIED", message: "This request came from another site and was refused." } } };

  describe("refundSponsorship", () => {
    let payee: Payee;
    let s: SeededSession;
    beforeEach(async () => {
      payee = await seedPayee(db(), sandbox.provider);
      s = await paid(payee);
    });
    const refundRow = async () => (await db().select().from(refundRequests).where(eq(refundRequests.sessionId, s.sessionId)))[0];

    it("refunds the owner's completed payment: data.code 200, one refund at the provider however many calls", async () => {
      // The sandbox settles a card refund at once, as Stripe's test mode does: the provider's answer is passed on.
      expect(await call("refundSponsorship", { sponsorSessionId: s.sessionId }, { as: callerOf(payee) })).toEqual({
        status: 200,
        body: { result: { code: 200, status: "succeeded", alreadyRequested: false } },
      });
      expect(await call("refundSponsorship", { sponsorSessionId: s.sessionId }, { as: callerOf(payee) })).toMatchObject({ status: 200, body: { result: { code: 200, alreadyRequested: true } } });
      expect(seen("refundPayment")).toEqual([{ idempotencyKey: `refund_${s.sessionId}`, paymentIntentId: s.paymentIntentId }]);
      // Our own record waits for the provider's refund event to say it is done.
      expect(await refundRow()).toMatchObject({ status: "pending", requestedBy: payee.uid });
    });

    it("is not-found for another person's payment and an unknown one, and refunds nothing", async () => {
      const stranger = await seedPayee(db(), sandbox.provider);
      for (const sponsorSessionId of [s.sessionId, "ss_000000000000000000000000", "anything"]) {
        expect(await call("refundSponsorship", { sponsorSessionId }, { as: callerOf(stranger) })).toEqual({
          status: 404,
          body: { error: { status: "NOT_FOUND", message: "There is no such payment." } },
        });
      }
      expect(seen("refundPayment")).toEqual([]);
      expect(await refundRow()).toBeUndefined();
    });

    it("is aborted for a payment that is not completed", async () => {
      const open = await seedSession(db(), payee);
      expect(await call("refundSponsorship", { sponsorSessionId: open.sessionId }, { as: callerOf(payee) })).toEqual({
        status: 409,
        body: { error: { status: "ABORTED", message: "Only a completed payment can be refunded; this one is pending." } },
      });
    });

    it("asks a guest to sign in and an unverified person to verify, and refunds nothing", async () => {
      expect(await call("refundSponsorship", { sponsorSessionId: s.sessionId })).toEqual(signedOut);
      expect(await call("refundSponsorship", { sponsorSessionId: s.sessionId }, { as: { ...callerOf(payee)!, emailVerified: false } })).toEqual(unverified);
      expect(seen("refundPayment")).toEqual([]);
    });

    it.each([
      ["no data", null, "data must be an object with a sponsorSessionId string."],
      ["a string as data", "ss_1", "data must be an object with a sponsorSessionId string."],
      ["a missing id", {}, "sponsorSessionId must be a string."],
      ["a number", { sponsorSessionId: 7 }, "sponsorSessionId must be a string."],
      ["an empty id", { sponsorSessionId: "" }, "sponsorSessionId must not be empty."],
      ["an id over 100 characters", { sponsorSessionId: "s".repeat(101) }, "sponsorSessionId must be at most 100 characters."],
    ])("refuses %s with invalid-argument", async (_label, data, message) => {
      expect(await call("refundSponsorship", data, { as: callerOf(payee) })).toEqual({ status: 400, body: { error: { status: "INVALID_ARGUMENT", message } } });
      expect(seen("refundPayment")).toEqual([]);
    });

    it("refuses a call another site's page made, even with the owner's session", async () => {
      expect(await call("refundSponsorship", { sponsorSessionId: s.sessionId }, { as: callerOf(payee), headers: CROSS_SITE })).toEqual(crossSite);
      expect(await call("refundSponsorship", { sponsorSessionId: s.sessionId }, { as: callerOf(payee), headers: { Origin: "https://evil.example" } })).toEqual(crossSite);
      expect(seen("refundPayment")).toEqual([]);
      expect(await refundRow()).toBeUndefined();
    });
  });

  describe("sponsorPaymentInfo", () => {
    let payee: Payee;
    let s: SeededSession;
    beforeEach(async () => {
      payee = await seedPayee(db(), sandbox.provider);
      s = await paid(payee, { amount: 10_000, platformFee: 500 });
    });

    it("answers code 200 and the payment's details, in minor units, as the Payment info page shows them", async () => {
      const { status, body } = await call("sponsorPaymentInfo", { sponsorSessionId: s.sessionId }, { as: callerOf(payee) });
      expect(status).toBe(200);
      expect(body.result).toEqual({
        code: 200,
        currency: "usd",
        transaction: { id: s.sessionId, kind: "tip", status: "completed", refundPending: false, created: expect.any(String), amount: 10_000, paymentReference: s.paymentIntentId },
        details: { sponsorEmail: expect.stringMatching(/@sponsor\.example$/), message: "Keep it up!" },
        grossPayment: 10_000,
        returned: 0,
        netPayment: 9_500,
        fees: { platform: 500, provider: stripeStandardFee(10_000, "usd") },
        movements: [{ kind: "payment", created: expect.any(String), gross: 10_000, net: 9_500 }],
      });
    });

    it("is not-found for another person's payment and an unknown one", async () => {
      const stranger = await seedPayee(db(), sandbox.provider);
      for (const sponsorSessionId of [s.sessionId, "ss_000000000000000000000000"]) {
        expect(await call("sponsorPaymentInfo", { sponsorSessionId }, { as: callerOf(stranger) })).toEqual({
          status: 404,
          body: { error: { status: "NOT_FOUND", message: "There is no such payment." } },
        });
      }
    });

    it("asks a guest to sign in and an unverified person to verify; refuses bad data and other sites' pages", async () => {
      expect(await call("sponsorPaymentInfo", { sponsorSessionId: s.sessionId })).toEqual(signedOut);
      expect(await call("sponsorPaymentInfo", { sponsorSessionId: s.sessionId }, { as: { ...callerOf(payee)!, emailVerified: false } })).toEqual(unverified);
      expect(await call("sponsorPaymentInfo", { sponsorSessionId: ["ss_1"] }, { as: callerOf(payee) })).toEqual({
        status: 400,
        body: { error: { status: "INVALID_ARGUMENT", message: "sponsorSessionId must be a string." } },
      });
      expect(await call("sponsorPaymentInfo", { sponsorSessionId: s.sessionId }, { as: callerOf(payee), headers: CROSS_SITE })).toEqual(crossSite);
    });
  });

  describe("buildSponsorSession", () => {
    let payee: Payee;
    beforeEach(async () => {
      payee = await seedPayee(db(), sandbox.provider);
    });
    const tip = (over: Record<string, unknown> = {}) => ({ ending: payee.ending, kind: "tip", amount: 2550, sponsorEmail: "fan@sponsor.example", message: "Go!", ...over });
    const sessionsOf = () => db().select().from(sponsorSessions).where(eq(sponsorSessions.posterUid, payee.uid));

    it("opens a checkout for a guest, as the checkout page does, and answers the sandbox's own page", async () => {
      const { status, body } = await call("buildSponsorSession", tip());
      expect(status).toBe(200);
      const result = body.result as { sessionId: string; url: string };
      expect(result.sessionId).toMatch(/^ss_[0-9a-f]{24}$/);
      const [checkout] = seen("createSponsorCheckout");
      expect(result.url).toBe(`${CALLABLE_ORIGIN}/sandbox/checkout/${(await sessionsOf())[0]!.providerCheckoutId}`);
      expect(checkout).toMatchObject({ idempotencyKey: `checkout_${result.sessionId}`, amount: 2550, destinationAccountId: payee.accountId });
      expect(await sessionsOf()).toEqual([expect.objectContaining({ id: result.sessionId, amount: 2550, sponsorUid: null, status: "pending", message: "Go!" })]);
    });

    it("records a signed-in sponsor as the payer", async () => {
      const sponsor = await newPerson("sponsor");
      const { body } = await call("buildSponsorSession", tip(), { as: sponsor });
      expect(await sessionsOf()).toEqual([expect.objectContaining({ id: (body.result as { sessionId: string }).sessionId, sponsorUid: sponsor.id })]);
    });

    it("says what is wrong with each field, as the page does, and opens nothing", async () => {
      expect(await call("buildSponsorSession", tip({ message: "  ", amount: 10 }))).toEqual({
        status: 400,
        body: { error: { status: "INVALID_ARGUMENT", message: expect.any(String), details: { fieldErrors: { message: "Required", amount: "The minimum tip is $1.00" } } } },
      });
      for (const [data, message] of [
        [null, "data must be an object with ending, kind, amount and message."],
        [tip({ amount: 25.5 }), "amount must be a whole number of cents."],
        [tip({ amount: "25" }), "amount must be a number of cents."],
        [tip({ amount: -100 }), "amount must be more than 0."],
        [tip({ kind: "gift" }), "kind must be tip or sponsorship."],
        [tip({ kind: "sponsorship" }), "postId is required for a sponsorship."],
        [tip({ ending: "" }), "ending must not be empty."],
      ] as const) {
        expect(await call("buildSponsorSession", data)).toEqual({ status: 400, body: { error: { status: "INVALID_ARGUMENT", message } } });
      }
      expect(seen("createSponsorCheckout")).toEqual([]);
      expect(await sessionsOf()).toEqual([]);
    });

    it("is not-found for an unknown page and aborted for an owner who cannot take payments yet", async () => {
      expect(await call("buildSponsorSession", tip({ ending: "no_such_page_here" }))).toMatchObject({ status: 404, body: { error: { status: "NOT_FOUND" } } });
      const unready = await seedPayee(db(), sandbox.provider, { complete: false });
      expect(await call("buildSponsorSession", tip({ ending: unready.ending }))).toMatchObject({ status: 409, body: { error: { status: "ABORTED" } } });
    });

    it("never answers an address off the provider's own pages", async () => {
      // The sandbox, but answering its checkout at another site's address.
      const offSite: PaymentProvider = {
        ...sandbox.provider,
        createSponsorCheckout: async (input) => ({ ...(await sandbox.provider.createSponsorCheckout(input)), url: "https://evil.example/sandbox/checkout/cs_1" }),
      };
      const other = await serveCallables(db(), offSite);
      try {
        const payeeThere = await seedPayee(db(), sandbox.provider);
        expect(await other.call("buildSponsorSession", tip({ ending: payeeThere.ending }))).toEqual({
          status: 503,
          body: { error: { status: "UNAVAILABLE", message: "The checkout could not be opened. Please try again in a moment." } },
        });
      } finally {
        await other.close();
      }
    });

    it("refuses a call another site's page made, and opens nothing", async () => {
      expect(await call("buildSponsorSession", tip(), { headers: CROSS_SITE })).toEqual(crossSite);
      expect(seen("createSponsorCheckout")).toEqual([]);
      expect(await sessionsOf()).toEqual([]);
    });
  });

  describe("buildProSession", () => {
    it("opens the caller's own checkout for a plan, carrying returnTo, on the sandbox's own page", async () => {
      const buyer = await newPerson("buyer");
      const { status, body } = await call("buildProSession", { plan: "star_power", returnTo: "/app/sponsors" }, { as: buyer });
      expect(status).toBe(200);
      const [checkout] = seen("createProCheckout");
      expect(body.result).toEqual({ url: expect.stringMatching(new RegExp(`^${CALLABLE_ORIGIN}/sandbox/pro-checkout/cs_`)), destination: "checkout" });
      expect(checkout).toMatchObject({ uid: buyer.id, plan: "star_power", mode: "subscription", successUrl: `${CALLABLE_ORIGIN}/app/pro?checkout=success&returnTo=%2Fapp%2Fsponsors` });
      expect(await db().select().from(proCheckouts).where(eq(proCheckouts.uid, buyer.id))).toHaveLength(1);
      // Another site's address as returnTo is not followed.
      await call("buildProSession", { plan: "launchpad", returnTo: "https://evil.example/" }, { as: buyer });
      expect(seen("createProCheckout")[1]).toMatchObject({ successUrl: `${CALLABLE_ORIGIN}/app/pro?checkout=success&returnTo=%2Fapp` });
    });

    it("asks a guest to sign in, an unverified person to verify; refuses an unknown plan and other sites' pages; opens nothing", async () => {
      const buyer = await newPerson("buyer");
      expect(await call("buildProSession", { plan: "launchpad" })).toEqual(signedOut);
      expect(await call("buildProSession", { plan: "launchpad" }, { as: await newPerson("unverified", false) })).toEqual(unverified);
      for (const data of [{ plan: "platinum" }, {}, null, { plan: "launchpad", returnTo: 3 }]) {
        expect(await call("buildProSession", data, { as: buyer })).toMatchObject({ status: 400, body: { error: { status: "INVALID_ARGUMENT" } } });
      }
      expect(await call("buildProSession", { plan: "launchpad" }, { as: buyer, headers: CROSS_SITE })).toEqual(crossSite);
      expect(seen("createProCheckout")).toEqual([]);
    });
  });

  describe("createPortalLink", () => {
    it("opens the portal of the caller's own customer, returning to My Account or a path of ours", async () => {
      const [one, two] = [await newPerson("member"), await newPerson("member")];
      const [customerOne, customerTwo] = [await ensureBillingCustomer(db(), provider, { uid: one.id, email: one.email }), await ensureBillingCustomer(db(), provider, { uid: two.id, email: two.email })];
      expect(await call("createPortalLink", null, { as: one })).toEqual({
        status: 200,
        body: { result: { url: portalLink(CALLABLE_ORIGIN, sandbox.provider.linkKey, { customerId: customerOne, returnUrl: `${CALLABLE_ORIGIN}/app/account` }, clock.now) } },
      });
      expect(await call("createPortalLink", { returnTo: "/app/pro" }, { as: two })).toEqual({
        status: 200,
        body: { result: { url: portalLink(CALLABLE_ORIGIN, sandbox.provider.linkKey, { customerId: customerTwo, returnUrl: `${CALLABLE_ORIGIN}/app/pro` }, clock.now) } },
      });
      expect(((await call("createPortalLink", { returnTo: "//evil.example/x" }, { as: two })).body.result as { url: string }).url).toContain(encodeURIComponent(`${CALLABLE_ORIGIN}/app/account`));
    });

    it("is aborted for someone who never bought; asks a guest to sign in; refuses bad data and other sites' pages", async () => {
      const person = await newPerson("never");
      expect(await call("createPortalLink", null, { as: person })).toEqual({
        status: 409,
        body: { error: { status: "ABORTED", message: "You have no Pro plan to manage yet: choose one on the Pro page." } },
      });
      expect(await call("createPortalLink", null)).toEqual(signedOut);
      expect(await call("createPortalLink", null, { as: await newPerson("unverified", false) })).toEqual(unverified);
      expect(await call("createPortalLink", { returnTo: 5 }, { as: person })).toEqual({ status: 400, body: { error: { status: "INVALID_ARGUMENT", message: "returnTo must be a string." } } });
      expect(await call("createPortalLink", "portal", { as: person })).toMatchObject({ status: 400, body: { error: { status: "INVALID_ARGUMENT" } } });
      expect(await call("createPortalLink", null, { as: person, headers: CROSS_SITE })).toEqual(crossSite);
      expect(seen("createPortalLink")).toEqual([]);
    });
  });

  describe("createLoginLink", () => {
    it("links to the payouts dashboard of the caller's own payout account", async () => {
      const [one, two] = [await seedPayee(db(), sandbox.provider), await seedPayee(db(), sandbox.provider)];
      expect(await call("createLoginLink", null, { as: callerOf(one) })).toEqual({ status: 200, body: { result: { url: loginLink(CALLABLE_ORIGIN, sandbox.provider.linkKey, one.accountId, clock.now) } } });
      expect(await call("createLoginLink", {}, { as: callerOf(two) })).toEqual({ status: 200, body: { result: { url: loginLink(CALLABLE_ORIGIN, sandbox.provider.linkKey, two.accountId, clock.now) } } });
    });

    it("is not-found without a payout account; asks a guest to sign in; refuses bad data and other sites' pages", async () => {
      const person = await newPerson("nopayouts");
      expect(await call("createLoginLink", null, { as: person })).toEqual({
        status: 404,
        body: { error: { status: "NOT_FOUND", message: "You don't have a payout account yet. Set up payments first." } },
      });
      expect(await call("createLoginLink", null)).toEqual(signedOut);
      expect(await call("createLoginLink", null, { as: await newPerson("unverified", false) })).toEqual(unverified);
      expect(await call("createLoginLink", { accountId: "acct_someone_else" }, { as: person })).toEqual({
        status: 400,
        body: { error: { status: "INVALID_ARGUMENT", message: "data must be null or an empty object." } },
      });
      const payee = await seedPayee(db(), sandbox.provider);
      expect(await call("createLoginLink", null, { as: callerOf(payee), headers: CROSS_SITE })).toEqual(crossSite);
    });
  });
});
