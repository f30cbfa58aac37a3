import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { payMembershipCheckout } from "#server/providers/payments/sandbox/membership-pay";
import { EVERY_PAYEE_PAYABLE } from "#server/providers/payments/sandbox/pay";
import { createSandboxProvider, type SandboxProvider } from "#server/providers/payments/sandbox/provider";
import type { SandboxMembershipsAdvanceAnswer } from "./contract";
import { hookPath } from "./contract";
import type { TestHooksDeps } from "./http";
import { sandboxMembershipHooks } from "./sandbox-memberships";

const ORIGIN = "http://app.test";
const CARD = { email: "fan@example.com", number: "4242 4242 4242 4242", expiry: "12 / 34", cvc: "123", postalCode: "94107" };

describe.each(ENGINES)("the sandbox membership clock hook on %s", (engine) => {
  const database = migratedDatabase(engine);
  let sandbox: SandboxProvider;
  let server: ReturnType<ReturnType<typeof express>["listen"]>;
  let base: string;

  beforeAll(async () => {
    sandbox = createSandboxProvider({
      db: database.db,
      config: { PUBLIC_ORIGIN: ORIGIN },
      sessionSecret: "a-session-secret-of-at-least-32-characters",
      whyPayeeCannotBePaid: EVERY_PAYEE_PAYABLE,
      fetch: async () => new Response("ok"),
    });
    const app = express();
    // Mounted as server/main/app.ts mounts the hooks: under the prefix.
    app.use("/__test", sandboxMembershipHooks({ payments: sandbox, sandbox, db: database.db } as unknown as TestHooksDeps));
    await new Promise<void>((resolve) => {
      server = app.listen(0, "127.0.0.1", () => resolve());
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await sandbox.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const advance = (body: object) => fetch(`${base}${hookPath("sandboxMembershipsAdvance")}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

  it("moves the subscription named on by one period, and answers what happened", async () => {
    const { accountId } = await sandbox.createConnectedAccount({ idempotencyKey: "account_hook", email: "c@example.com", accountType: "individual", uid: "c" });
    await sandbox.completeOnboarding(accountId, { legalName: "Creator", country: "US", bankAccount: "000123456789" });
    const checkout = await sandbox.createMembershipCheckout({
      idempotencyKey: "membership_checkout_hook",
      membershipId: "m_hook",
      destinationAccountId: accountId,
      amount: 700,
      currency: "usd",
      interval: "month",
      applicationFeePercent: 0,
      productName: "Silver membership · Creator",
      memberEmail: null,
      successUrl: `${ORIGIN}/welcome`,
      cancelUrl: `${ORIGIN}/creator`,
    });
    const paid = await payMembershipCheckout(database.db, checkout.checkoutId, CARD, sandbox.now());
    if (paid.kind !== "SUCCESS" || paid.outcome !== "PAID") throw new Error("not paid");

    const one = await advance({ subscriptionId: paid.subscriptionId });
    expect(one.status).toBe(200);
    const answer = (await one.json()) as SandboxMembershipsAdvanceAnswer;
    expect(answer).toMatchObject({ renewed: 1, failed: 0, ended: 0, changes: [{ subscriptionId: paid.subscriptionId, membershipId: "m_hook", outcome: "renewed" }] });

    const every = (await (await advance({})).json()) as SandboxMembershipsAdvanceAnswer;
    expect(every.changes.filter((c) => c.subscriptionId === paid.subscriptionId)).toHaveLength(1);
    expect((await sandbox.readMembershipState(paid.subscriptionId)).invoices).toHaveLength(3);

    expect((await advance({ subscriptionId: "not-a-subscription" })).status).toBe(400);
    expect((await advance({ subscriptionId: "sub_sbx_000000000000000000000000" })).status).toBe(404);
  });
});
