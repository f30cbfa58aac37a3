import { randomInt } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { CHECKOUT_RATE_LIMITS } from "#server/platform/abuse/rules";
import { sponsorSessions } from "#server/platform/db/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { seedPayee, type Payee } from "#tests/support/payments";
import { testSandbox, withCallLog } from "#tests/support/test-sandbox";
import type { PaymentProvider } from "#server/providers/payments/port";
import { buildSponsorSession, type CheckoutClient, type SponsorCheckoutRequest } from "#server/domains/payments/checkout/sponsor-session";
import { checkoutCookie, newCheckoutToken, readCheckoutToken, REUSE_MIN_REMAINING_MS } from "#server/domains/payments/checkout/reuse";

/** Checkouts are limited per client network and per page; the same browser and form reopen the open one. */
describe.each(ENGINES)("checkout limits and reuse on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;
  const options = { platformFeePercent: 0, publicOrigin: "http://app.test" };
  const sandbox = testSandbox(database);
  /** The sandbox with a log of the checkouts asked of it. */
  let provider: PaymentProvider;
  let checkoutCalls: () => unknown[];
  let payee: Payee;
  // Every call its own address, never one used before: rate limit rows outlive a test, and a
  // random address could land on a network an earlier test used up.
  let nextAddress = randomInt(0, 1 << 15);
  const address = () => {
    nextAddress += 1;
    return `203.0.${(nextAddress >> 8) & 0xff}.${nextAddress & 0xff}`;
  };
  const tip = (client: CheckoutClient | null, over: Partial<SponsorCheckoutRequest> = {}): SponsorCheckoutRequest => ({
    ending: payee.ending, kind: "tip", amount: 1_000_000, sponsorEmail: "", message: "Pay attention", sponsorUid: null, client, ...over,
  });
  const build = (input: SponsorCheckoutRequest) => buildSponsorSession(db(), provider, input, options);
  const pendingOnPage = async () => (await db().select().from(sponsorSessions).where(eq(sponsorSessions.posterUid, payee.uid))).length;

  beforeEach(async () => {
    const log = withCallLog(sandbox.provider);
    ({ provider } = log);
    checkoutCalls = () => log.callsOf("createSponsorCheckout");
    payee = await seedPayee(db(), sandbox.provider);
  });

  it(`one network gets ${CHECKOUT_RATE_LIMITS.network.limit} new checkouts, then a 429 with the wait; nothing is made at the provider`, async () => {
    const client = { ip: address(), browserToken: null };
    for (let i = 0; i < CHECKOUT_RATE_LIMITS.network.limit; i++) expect((await build(tip(client))).kind).toBe("SUCCESS");
    const refused = await build(tip(client));
    expect(refused).toMatchObject({ kind: "ERROR", code: "resource-exhausted", message: "Too many attempts. Please try again in 10 minutes." });
    expect(checkoutCalls()).toHaveLength(CHECKOUT_RATE_LIMITS.network.limit);
    expect(await pendingOnPage()).toBe(CHECKOUT_RATE_LIMITS.network.limit);
    // Another network is not held back by this one.
    expect((await build(tip({ ip: address(), browserToken: null }))).kind).toBe("SUCCESS");
  });

  it("an IPv6 client is one network by its /64, however it rotates the rest", async () => {
    const prefix = `2001:db8:${randomInt(1, 0xffff).toString(16)}:${randomInt(1, 0xffff).toString(16)}`;
    for (let i = 0; i < CHECKOUT_RATE_LIMITS.network.limit; i++) expect((await build(tip({ ip: `${prefix}::${i + 1}`, browserToken: null }))).kind).toBe("SUCCESS");
    expect(await build(tip({ ip: `${prefix}:1:2:3:4`, browserToken: null }))).toMatchObject({ code: "resource-exhausted" });
  });

  it(`a page takes ${CHECKOUT_RATE_LIMITS.page.limit} new checkouts from everyone; a refused network uses none of them`, async () => {
    const flooder = { ip: address(), browserToken: null };
    let made = 0;
    for (let i = 0; i < CHECKOUT_RATE_LIMITS.network.limit + 20; i++) if ((await build(tip(flooder))).kind === "SUCCESS") made += 1;
    expect(made).toBe(CHECKOUT_RATE_LIMITS.network.limit);
    while (made < CHECKOUT_RATE_LIMITS.page.limit) {
      expect((await build(tip({ ip: address(), browserToken: null }))).kind).toBe("SUCCESS");
      made += 1;
    }
    expect(await build(tip({ ip: address(), browserToken: null }))).toMatchObject({ code: "resource-exhausted" });
    expect(await pendingOnPage()).toBe(CHECKOUT_RATE_LIMITS.page.limit);
    // Another creator's page is not affected.
    const other = await seedPayee(db(), sandbox.provider);
    expect((await build(tip({ ip: address(), browserToken: null }, { ending: other.ending }))).kind).toBe("SUCCESS");
  });

  it("a network asking for receipts gets fewer checkouts that name an email", async () => {
    const client = { ip: address(), browserToken: null };
    const limit = Math.min(CHECKOUT_RATE_LIMITS.receiptsPerNetwork.limit, CHECKOUT_RATE_LIMITS.network.limit);
    for (let i = 0; i < limit; i++) expect((await build(tip(client, { sponsorEmail: `victim${i}@mail.example` }))).kind).toBe("SUCCESS");
    expect(await build(tip(client, { sponsorEmail: "victim@mail.example" }))).toMatchObject({ code: "resource-exhausted" });
  });

  it("bad forms are answered without counting; the server's own callers (client null) are not limited", async () => {
    const client = { ip: address(), browserToken: null };
    for (let i = 0; i < 30; i++) expect(await build(tip(client, { message: "" }))).toMatchObject({ code: "invalid-argument" });
    expect((await build(tip(client))).kind).toBe("SUCCESS");
    for (let i = 0; i < CHECKOUT_RATE_LIMITS.network.limit + 1; i++) expect((await build(tip(null))).kind).toBe("SUCCESS");
  });

  it("the same browser sending the same form again gets its open checkout back, uncounted; anything different makes a new one", async () => {
    const ip = address();
    const browser = { ip, browserToken: newCheckoutToken() };
    const first = await build(tip(browser, { sponsorEmail: "fan@mail.example" }));
    if (first.kind !== "SUCCESS") throw new Error(first.message);
    for (let i = 0; i < CHECKOUT_RATE_LIMITS.network.limit + 5; i++) {
      expect(await build(tip(browser, { sponsorEmail: "fan@mail.example" }))).toEqual(first);
    }
    expect(checkoutCalls()).toHaveLength(1);
    expect(await pendingOnPage()).toBe(1);

    // Another browser (even on the same network), or the same browser with another amount, message or email: a new checkout.
    const variants = [
      tip({ ip, browserToken: newCheckoutToken() }, { sponsorEmail: "fan@mail.example" }),
      tip(browser, { sponsorEmail: "fan@mail.example", amount: 999_999 }),
      tip(browser, { sponsorEmail: "fan@mail.example", message: "Another message" }),
      tip(browser, { sponsorEmail: "other@mail.example" }),
      tip(browser, { sponsorEmail: "fan@mail.example", sponsorUid: null, client: { ip, browserToken: null } }),
    ];
    const ids = new Set([first.sessionId]);
    for (const variant of variants) {
      const result = await build(variant);
      if (result.kind !== "SUCCESS") throw new Error(result.message);
      ids.add(result.sessionId);
    }
    expect(ids.size).toBe(1 + variants.length);
  });

  it("a checkout is not reused once paid, expired, or about to close", async () => {
    const browser = { ip: address(), browserToken: newCheckoutToken() };
    const open = async () => {
      const result = await build(tip(browser));
      if (result.kind !== "SUCCESS") throw new Error(result.message);
      return result.sessionId;
    };
    const first = await open();
    await db().update(sponsorSessions).set({ status: "completed" }).where(eq(sponsorSessions.id, first));
    const second = await open();
    expect(second).not.toBe(first);
    await db().update(sponsorSessions).set({ status: "expired" }).where(eq(sponsorSessions.id, second));
    const third = await open();
    expect(third).not.toBe(second);
    await db().update(sponsorSessions).set({ expiresAt: new Date(Date.now() + REUSE_MIN_REMAINING_MS - 1000) }).where(eq(sponsorSessions.id, third));
    const fourth = await open();
    expect(fourth).not.toBe(third);
    expect(await open()).toBe(fourth);
  });

  it("the browser's token: only ours is read back; the cookie is HttpOnly, for the checkout path, Secure on https", () => {
    const token = newCheckoutToken();
    expect(readCheckoutToken(`a=1; sg_checkout=${token}; b=2`)).toBe(token);
    expect(readCheckoutToken("sg_checkout=short")).toBeNull();
    expect(readCheckoutToken("sg_checkout=<script>aaaaaaaaaaaaaaaaaaaaaaa")).toBeNull();
    expect(readCheckoutToken(null)).toBeNull();
    expect(checkoutCookie(token, true)).toBe(`sg_checkout=${token}; Path=/app/payments; Max-Age=3600; HttpOnly; SameSite=Lax; Secure`);
    expect(checkoutCookie(token, false)).not.toContain("Secure");
  });

});
