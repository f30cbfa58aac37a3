import { sandboxHostedPages } from "#server/providers/payments/sandbox/provider";
import { stripeHostedPages } from "#server/providers/payments/stripe/provider";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { sandboxCheckouts } from "#server/providers/payments/sandbox/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { testSandbox } from "#tests/support/test-sandbox";
import { seedOption, seedPayee, type Payee } from "#tests/support/payments";
import {
  amountInputText,
  checkoutTarget,
  isSponsorSessionId,
  loadCheckoutOffer,
  parseAmountInput,
  providerCheckoutUrl,
  startSponsorCheckout,
} from "#server/domains/payments/checkout/start-checkout";

describe("the amount as people type it", () => {
  it("reads whole dollars, dollars and cents, a dollar sign and thousands separators into cents", () => {
    expect(parseAmountInput("25")).toBe(2500);
    expect(parseAmountInput(" 25.50 ")).toBe(2550);
    expect(parseAmountInput("25.5")).toBe(2550);
    expect(parseAmountInput("0.99")).toBe(99);
    expect(parseAmountInput("$1,250.00")).toBe(125_000);
    expect(parseAmountInput("$ 7")).toBe(700);
  });

  it("refuses anything else rather than guess", () => {
    for (const text of ["", "  ", "-5", "25.505", "25,5", "1e3", "abc", "25.", ".50", "1,25", "0x10", "10000000000", "25 50", "€25"]) {
      expect(parseAmountInput(text), text).toBeNull();
    }
  });

  it("shows amounts back the way they are typed", () => {
    expect(amountInputText(2500)).toBe("25");
    expect(amountInputText(2550)).toBe("25.50");
    expect(amountInputText(5)).toBe("0.05");
  });
});

describe("where the checkout form may send the browser", () => {
  const sandbox = { hostedPages: sandboxHostedPages("http://localhost:3000") };
  it("follows the sandbox's own checkout pages on our origin only", () => {
    expect(providerCheckoutUrl("http://localhost:3000/sandbox/checkout/cs_sbx_abc123", sandbox)).toBe("http://localhost:3000/sandbox/checkout/cs_sbx_abc123");
    expect(providerCheckoutUrl("http://evil.example/sandbox/checkout/cs_sbx_abc123", sandbox)).toBeNull();
    expect(providerCheckoutUrl("http://localhost:3000/app/account", sandbox)).toBeNull();
    expect(providerCheckoutUrl("http://localhost:3000/sandbox/checkout/../../x", sandbox)).toBeNull();
    expect(providerCheckoutUrl("http://user:pw@localhost:3000/sandbox/checkout/cs_1", sandbox)).toBeNull();
    expect(providerCheckoutUrl("not a url", sandbox)).toBeNull();
  });

  it("follows Stripe's hosted checkout (and the configured API origin: the emulator in tests)", () => {
    const stripe = { hostedPages: stripeHostedPages() };
    expect(providerCheckoutUrl("https://checkout.stripe.com/c/pay/cs_test_1#fid", stripe)).toBe("https://checkout.stripe.com/c/pay/cs_test_1#fid");
    expect(providerCheckoutUrl("https://checkout.stripe.com.evil.example/c/pay", stripe)).toBeNull();
    expect(providerCheckoutUrl("http://checkout.stripe.com/c/pay", stripe)).toBeNull();
    expect(providerCheckoutUrl("http://127.0.0.1:4010/checkout/pay/cs_1", { hostedPages: stripeHostedPages("http://127.0.0.1:4010") })).toBe(
      "http://127.0.0.1:4010/checkout/pay/cs_1",
    );
    // The CSP's form-action lists them: Stripe's checkout and billing sites; the sandbox needs none off our origin.
    expect(stripe.hostedPages.externalOrigins).toEqual(["https://checkout.stripe.com", "https://billing.stripe.com"]);
    expect(sandbox.hostedPages.externalOrigins).toEqual([]);
  });

  it("knows session ids by their shape", () => {
    expect(isSponsorSessionId(`ss_${"a1".repeat(12)}`)).toBe(true);
    expect(isSponsorSessionId("ss_nope")).toBe(false);
    expect(isSponsorSessionId(null)).toBe(false);
  });
});

describe("checkout targets", () => {
  it("reads the bio page's links", () => {
    expect(checkoutTarget(new URLSearchParams("page=maya&option=9_x&amount=500"))).toEqual({ ending: "maya", kind: "sponsorship", postId: "9_x", amount: null });
    expect(checkoutTarget(new URLSearchParams("page=maya&kind=tip"))).toEqual({ ending: "maya", kind: "tip", postId: null, amount: null });
    expect(checkoutTarget(new URLSearchParams("page=maya&kind=tip&amount=500"))).toEqual({ ending: "maya", kind: "tip", postId: null, amount: 500 });
    for (const amount of ["0", "-5", "5.5", "05", "1e3", "9999999999", "five"]) {
      expect(checkoutTarget(new URLSearchParams(`page=maya&kind=tip&amount=${amount}`))?.amount, amount).toBeNull();
    }
    expect(checkoutTarget(new URLSearchParams("page=maya"))).toBeNull();
    expect(checkoutTarget(new URLSearchParams("kind=tip"))).toBeNull();
  });
});

describe.each(ENGINES)("the checkout page's offer and form on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  let payee: Payee;
  let option: string;
  let freeOption: string;
  const db = () => database.db;
  const settings = { platformFeePercent: 0, publicOrigin: "http://app.test" };

  beforeAll(async () => {
    payee = await seedPayee(db(), sandbox.provider);
    option = await seedOption(db(), payee, 2500);
    freeOption = await seedOption(db(), payee, 0);
  });

  it("offers an option with its minimum prefilled, a tip with none, and nothing the page doesn't offer", async () => {
    const sponsorship = await loadCheckoutOffer(db(), { ending: payee.ending, kind: "sponsorship", postId: option });
    expect(sponsorship).toMatchObject({ kind: "SUCCESS", offer: { payeeName: `Page of ${payee.uid}`, takesPayments: true, suggestedAmount: 2500, option: { id: option, minContributionCents: 2500 } } });
    const free = await loadCheckoutOffer(db(), { ending: payee.ending, kind: "sponsorship", postId: freeOption });
    expect(free).toMatchObject({ kind: "SUCCESS", offer: { suggestedAmount: null, option: { minContributionCents: 0 } } });
    expect(await loadCheckoutOffer(db(), { ending: payee.ending, kind: "tip", postId: null })).toMatchObject({ kind: "SUCCESS", offer: { kind: "tip", option: null } });
    expect(await loadCheckoutOffer(db(), { ending: payee.ending, kind: "sponsorship", postId: "9_other" })).toMatchObject({ code: "not-found" });
    expect(await loadCheckoutOffer(db(), { ending: "no_such_page", kind: "tip", postId: null })).toMatchObject({ code: "not-found" });
    const incomplete = await seedPayee(db(), sandbox.provider, { complete: false });
    expect(await loadCheckoutOffer(db(), { ending: incomplete.ending, kind: "tip", postId: null })).toMatchObject({ offer: { takesPayments: false } });
  });

  it("reports every wrong field at once, the option's minimum included", async () => {
    const target = { ending: payee.ending, kind: "sponsorship" as const, postId: option };
    const start = (values: { amount: string; sponsorEmail: string; message: string }) => startSponsorCheckout(db(), sandbox.provider, target, values, null, { ip: "198.51.100.7", browserToken: null }, settings);
    expect(await start({ amount: "10", sponsorEmail: "fan@", message: "" })).toMatchObject({
      code: "invalid-argument",
      fieldErrors: { amount: "The minimum contribution is $25.00", sponsorEmail: "Enter a valid email address", message: "Required" },
    });
    expect(await start({ amount: "", sponsorEmail: "fan@example.com", message: "Hi" })).toMatchObject({ fieldErrors: { amount: "Required" } });
    expect(await start({ amount: "ten", sponsorEmail: "fan@example.com", message: "Hi" })).toMatchObject({
      fieldErrors: { amount: "Enter an amount in dollars, like 25 or 25.50" },
    });
    const paid = await start({ amount: "25.50", sponsorEmail: "fan@example.com", message: "Hi" });
    expect(paid).toMatchObject({ kind: "SUCCESS" });
    const sessionId = (paid as { sessionId: string }).sessionId;
    expect(await db().select().from(sandboxCheckouts).where(eq(sandboxCheckouts.sessionId, sessionId))).toMatchObject([{ amount: 2550 }]);
  });
});
