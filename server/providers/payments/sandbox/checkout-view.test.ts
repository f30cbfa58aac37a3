import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { sandboxEvents } from "#server/providers/payments/sandbox/schema";
import { loadCheckoutView } from "./checkout-view";
import { payCheckout } from "./pay";
import { createSandboxProvider, type SandboxProvider } from "./provider";
import { EVERY_PAYEE_PAYABLE } from "#server/providers/payments/sandbox/pay";

const ORIGIN = "http://app.test";

describe.each(ENGINES)("the sandbox checkout page on %s", (engine) => {
  const database = migratedDatabase(engine);
  const clock = { now: new Date("2026-11-22T18:00:00Z") };
  const sent: string[] = [];
  let sandbox: SandboxProvider;
  let checkoutId: string;

  beforeAll(async () => {
    const fakeFetch = (async (_url: string, init: RequestInit) => {
      sent.push(String(init.body));
      return new Response(null, { status: 200 });
    }) as unknown as typeof fetch;
    sandbox = createSandboxProvider({ db: database.db, config: { PUBLIC_ORIGIN: ORIGIN }, sessionSecret: "a-session-secret-of-at-least-32-characters", whyPayeeCannotBePaid: EVERY_PAYEE_PAYABLE, now: () => clock.now, fetch: fakeFetch });
    const { accountId } = await sandbox.createConnectedAccount({ idempotencyKey: "a1", email: "maya@example.com", accountType: "individual", uid: "u1" });
    await sandbox.completeOnboarding(accountId, { legalName: "Maya Makes LLC", country: "US", bankAccount: "000123456789" });
    ({ checkoutId } = await sandbox.createSponsorCheckout({
      idempotencyKey: "c1",
      sessionId: "s1",
      destinationAccountId: accountId,
      amount: 1500,
      currency: "usd",
      applicationFeeAmount: 0,
      productName: "Tip for Maya Makes",
      sponsorEmail: null,
      successUrl: `${ORIGIN}/ok?id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${ORIGIN}/cancelled`,
    }));
  });
  afterAll(() => sandbox.close());

  it("shows an open checkout with its payee and an empty email", async () => {
    expect(await loadCheckoutView(sandbox, database.db, checkoutId)).toMatchObject({
      status: "open",
      productName: "Tip for Maya Makes",
      amount: 1500,
      payee: "Maya Makes LLC",
      email: "",
      successUrl: null,
      cancelUrl: `${ORIGIN}/cancelled`,
    });
    expect(await loadCheckoutView(sandbox, database.db, "cs_sbx_000000000000000000000000")).toBeNull();
  });

  it("expires the checkout when it is opened after its time, sending checkout.expired once however often it is opened", async () => {
    clock.now = new Date(clock.now.getTime() + 24 * 3600 * 1000);
    const views = await Promise.all([1, 2, 3].map(() => loadCheckoutView(sandbox, database.db, checkoutId)));
    expect(views.map((view) => view?.status)).toEqual(["expired", "expired", "expired"]);
    expect(await payCheckout(database.db, checkoutId, { email: "a@b.co", number: "4242424242424242", expiry: "12/34", cvc: "123", postalCode: "94107" }, clock.now, EVERY_PAYEE_PAYABLE)).toEqual({
      kind: "ERROR",
      code: "gone",
      reason: "EXPIRED",
      message: "This checkout has expired. Nothing was charged.",
    });
    expect(await database.db.select().from(sandboxEvents).where(eq(sandboxEvents.type, "checkout.expired"))).toHaveLength(1);
    await sandbox.deliverPendingSandboxEvents();
    expect(sent.filter((body) => body.includes('"checkout.expired"'))).toHaveLength(1);
  });
});
