import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sandboxAccounts, sandboxCustomers, sandboxProCheckouts, sandboxSubscriptions } from "#server/payments/sandbox/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { silentLogger } from "#tests/support/payments";
import { createSandboxProvider } from "./provider";

describe.each(ENGINES)("the sandbox's side of an account deletion on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = () =>
    createSandboxProvider({ db: database.db, config: { PUBLIC_ORIGIN: "http://localhost:3000" }, sessionSecret: "a-test-secret-that-is-long-enough-123", logger: silentLogger });

  it("deletes the payout account; deleting it again succeeds", async () => {
    const provider = sandbox();
    const { accountId } = await provider.createConnectedAccount({ idempotencyKey: "account_leaving", email: "leaving@example.com", accountType: "individual", uid: "uid-leaving" });
    await provider.deleteConnectedAccount({ accountId });
    expect(await database.db.select().from(sandboxAccounts).where(eq(sandboxAccounts.id, accountId))).toEqual([]);
    await expect(provider.readAccount(accountId)).rejects.toThrow();
    await expect(provider.deleteConnectedAccount({ accountId })).resolves.toBeUndefined();
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
    expect(customer).toMatchObject({ uid: "", email: "", cardBrand: null, cardLast4: null });
    const [subscription] = await database.db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, "sub_leaving"));
    expect(subscription).toMatchObject({ status: "canceled", cancelAtPeriodEnd: false });
    expect((await database.db.select().from(sandboxProCheckouts).where(eq(sandboxProCheckouts.customerId, customerId))).map((row) => row.uid)).toEqual([""]);
    expect((await provider.readProState(customerId)).subscriptions.every((s) => s.status === "canceled")).toBe(true);
  });
});
