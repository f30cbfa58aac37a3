import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sandboxAccounts, sandboxCheckouts, sandboxCustomers, sandboxPayments, sandboxProCheckouts, sandboxSubscriptions, sandboxTransfers } from "#server/providers/payments/sandbox/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { PAYING_CARD, silentLogger } from "#tests/support/payments";
import { payCheckout } from "./pay";
import { createSandboxProvider } from "./provider";
import { EVERY_PAYEE_PAYABLE } from "#server/providers/payments/sandbox/pay";

describe.each(ENGINES)("the sandbox's side of an account deletion on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = () =>
    createSandboxProvider({ db: database.db, config: { PUBLIC_ORIGIN: "http://localhost:3000" }, sessionSecret: "a-test-secret-that-is-long-enough-123", whyPayeeCannotBePaid: EVERY_PAYEE_PAYABLE, logger: silentLogger });

  it("deletes the payout account; deleting it again succeeds", async () => {
    const provider = sandbox();
    const { accountId } = await provider.createConnectedAccount({ idempotencyKey: "account_leaving", email: "leaving@example.com", accountType: "individual", uid: "uid-leaving" });
    await provider.deleteConnectedAccount({ accountId });
    expect(await database.db.select().from(sandboxAccounts).where(eq(sandboxAccounts.id, accountId))).toEqual([]);
    await expect(provider.readAccount(accountId)).rejects.toThrow();
    await expect(provider.deleteConnectedAccount({ accountId })).resolves.toBeUndefined();
  });

  it("keeps a paid account as an empty shell under its checkouts and payments, which lose the personal text", async () => {
    const provider = sandbox();
    const { accountId } = await provider.createConnectedAccount({ idempotencyKey: "account_uid-paid", email: "paid@example.com", accountType: "individual", uid: "uid-paid" });
    await provider.completeOnboarding(accountId, { legalName: "Paula Paid", country: "US", bankAccount: "000123456789" });
    const { checkoutId } = await provider.createSponsorCheckout({
      idempotencyKey: "checkout_paid",
      sessionId: "ss_paid",
      destinationAccountId: accountId,
      amount: 2500,
      currency: "usd",
      applicationFeeAmount: 0,
      productName: "Tip for Paula's page",
      description: "Sponsoring Paula Paid",
      sponsorEmail: "fan@sponsor.example",
      successUrl: "http://localhost:3000/app/payments/success",
      cancelUrl: "http://localhost:3000/app/payments/cancelled",
    });
    expect(await payCheckout(database.db, checkoutId, { email: "fan@sponsor.example", ...PAYING_CARD }, new Date(), EVERY_PAYEE_PAYABLE)).toMatchObject({ kind: "SUCCESS", outcome: "PAID" });

    await expect(provider.deleteConnectedAccount({ accountId })).resolves.toBeUndefined();
    await expect(provider.deleteConnectedAccount({ accountId })).resolves.toBeUndefined();

    const [account] = await database.db.select().from(sandboxAccounts).where(eq(sandboxAccounts.id, accountId));
    expect(account).toMatchObject({ idempotencyKey: null, email: "", uid: "", legalName: null, country: null, bankLast4: null, onboardingLinkId: null });
    expect(await provider.readAccount(accountId)).toMatchObject({ chargesEnabled: false, payoutsEnabled: false });
    const [checkout] = await database.db.select().from(sandboxCheckouts).where(eq(sandboxCheckouts.id, checkoutId));
    expect(checkout).toMatchObject({ accountId, status: "complete", amount: 2500, productName: "Deleted account", description: null, customerEmail: null });
    const payments = await database.db.select().from(sandboxPayments).where(eq(sandboxPayments.accountId, accountId));
    expect(payments).toMatchObject([{ checkoutId, amount: 2500, email: "" }]);
    // No personal text left in any of the three.
    expect(JSON.stringify([account, checkout, payments]).toLowerCase()).not.toMatch(/paula|paid@|uid-paid|fan@|6789/);
  });

  it("keeps an account that only received a deal's transfer as a shell under it, which can take no further transfer", async () => {
    const provider = sandbox();
    const { accountId } = await provider.createConnectedAccount({ idempotencyKey: "account_uid-released", email: "released@example.com", accountType: "individual", uid: "uid-released" });
    await provider.completeOnboarding(accountId, { legalName: "Rita Released", country: "US", bankAccount: "000123456789" });
    const { checkoutId } = await provider.createHeldCheckout({
      idempotencyKey: "deal_funding_released",
      fundingId: "f_released",
      dealId: "d_released",
      transferGroup: "deal_d_released",
      amount: 5000,
      currency: "usd",
      productName: "Deal with Rita",
      sponsorEmail: null,
      successUrl: "http://localhost:3000/app/deals/paid",
      cancelUrl: "http://localhost:3000/app/deals",
    });
    const paid = await payCheckout(database.db, checkoutId, { email: "brand@sponsor.example", ...PAYING_CARD }, new Date(), EVERY_PAYEE_PAYABLE);
    if (paid.kind !== "SUCCESS" || paid.outcome !== "PAID") throw new Error(JSON.stringify(paid));
    const { chargeId } = await provider.paymentDetails(paid.paymentIntentId);
    const release = { destinationAccountId: accountId, amount: 2000, currency: "usd", sourceChargeId: chargeId, transferGroup: "deal_d_released" };
    const { transferId } = await provider.createTransfer({ idempotencyKey: "deal_release_released", ...release });

    await expect(provider.deleteConnectedAccount({ accountId })).resolves.toBeUndefined();
    const [account] = await database.db.select().from(sandboxAccounts).where(eq(sandboxAccounts.id, accountId));
    expect(account).toMatchObject({ idempotencyKey: null, email: "", uid: "", legalName: null, payoutsEnabled: false });
    expect(await database.db.select().from(sandboxTransfers).where(eq(sandboxTransfers.id, transferId))).toMatchObject([{ accountId, amount: 2000 }]);
    await expect(provider.createTransfer({ idempotencyKey: "deal_release_after", ...release })).rejects.toMatchObject({ code: "account_not_ready" });
  });

  it("ends the customer's subscription now and keeps no email, card or uid", async () => {
    const provider = sandbox();
    const prices = await provider.ensureProPrices([{ plan: "launchpad", lookupKey: "sg_launchpad", productName: "Launchpad", amount: 200, currency: "usd", interval: "month" }]);
    const { customerId } = await provider.createCustomer({ idempotencyKey: "customer_leaving", uid: "uid-leaving", email: "leaving@example.com" });
    await provider.createProCheckout({
      idempotencyKey: "pro_checkout_leaving",
      customerId,
      uid: "uid-leaving",
      plan: "launchpad",
      priceId: prices.launchpad,
      mode: "subscription",
      successUrl: "http://localhost:3000/app/pro/success",
      cancelUrl: "http://localhost:3000/app/pro",
    });
    await database.db
      .insert(sandboxSubscriptions)
      .values({ id: "sub_leaving", customerId, priceId: prices.launchpad, status: "active", currentPeriodEnd: new Date(Date.now() + 86_400_000) });

    await provider.deleteCustomer({ customerId });
    const [customer] = await database.db.select().from(sandboxCustomers).where(eq(sandboxCustomers.id, customerId));
    expect(customer).toMatchObject({ idempotencyKey: null, uid: "", email: "", cardBrand: null, cardLast4: null });
    const [subscription] = await database.db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, "sub_leaving"));
    expect(subscription).toMatchObject({ status: "canceled", cancelAtPeriodEnd: false });
    expect((await database.db.select().from(sandboxProCheckouts).where(eq(sandboxProCheckouts.customerId, customerId))).map((row) => row.uid)).toEqual([""]);
    expect((await provider.readProState(customerId)).subscriptions.every((s) => s.status === "canceled")).toBe(true);
  });
});
