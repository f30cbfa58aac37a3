import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { memberships, user } from "#server/platform/db/schema";
import type { MembershipCheckoutInput, PaymentProvider } from "#server/providers/payments/port";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { seedPayee, type Payee } from "#tests/support/payments";
import { TEST_ORIGIN, testSandbox } from "#tests/support/test-sandbox";
import { joinTarget, loadJoinOffer, readWelcome, startMembershipCheckout, whyMembershipPayeeCannotBePaid, type JoinFormValues } from "./join";
import { createTier, setTierStatus } from "./tiers";

/**
 * The provider's side of a membership checkout, as the port promises it: the sandbox's own is
 * built elsewhere, so these tests answer it themselves (one checkout per key) and keep every call.
 */
function membershipCheckouts(provider: PaymentProvider) {
  const calls: MembershipCheckoutInput[] = [];
  const paid = new Set<string>();
  const state = { down: false, url: (id: string) => `${TEST_ORIGIN}/sandbox/checkout/cs_mem_${id.replace(/[^A-Za-z0-9]/g, "")}` };
  const proxied = new Proxy(provider, {
    get(target, property, receiver) {
      if (property === "createMembershipCheckout") {
        return async (input: MembershipCheckoutInput) => {
          calls.push(input);
          if (state.down) throw new Error("provider unreachable");
          return { checkoutId: `cs_${input.membershipId}`, url: state.url(input.membershipId), expiresAt: new Date(Date.now() + 24 * 3600_000) };
        };
      }
      if (property === "membershipSubscriptionOfCheckout") return async (checkoutId: string) => (paid.has(checkoutId) ? `sub_${checkoutId}` : null);
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { provider: proxied, calls, paid, state };
}

describe.each(ENGINES)("joining a membership on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const db = () => database.db;
  const options = { platformFeePercent: 7, publicOrigin: "http://app.test", bioOrigin: "http://bio.test" };
  let payee: Payee;
  let goldId: string;
  let fake: ReturnType<typeof membershipCheckouts>;
  let ip = 0;
  const client = (reuseToken: string | null = null) => ({ ip: `203.0.113.${++ip}`, reuseToken });
  const form = (values: Partial<JoinFormValues> = {}): JoinFormValues => ({ interval: "month", amount: "", memberEmail: "fan@example.com", memberName: "", private: false, ...values });

  beforeAll(async () => {
    payee = await seedPayee(db(), sandbox.provider);
    await db().update(user).set({ name: "Maya" }).where(eq(user.id, payee.uid));
    const made = await createTier(db(), { uid: payee.uid }, payee.pageId, { name: "Gold", monthlyPrice: "5", yearlyPrice: "50", benefits: "Early videos", memberLimit: "", welcomeMessage: "Welcome to Gold!" });
    if (made.kind !== "SUCCESS") throw new Error("no tier");
    goldId = made.tier.id;
    fake = membershipCheckouts(sandbox.provider);
  });

  const join = (values: Partial<JoinFormValues> = {}, extra: { joiner?: { uid: string; email: string } | null; token?: string | null; tierId?: string } = {}) =>
    startMembershipCheckout(db(), fake.provider, { ending: payee.ending, tierId: extra.tierId ?? goldId, values: form(values), joiner: extra.joiner ?? null, client: client(extra.token ?? null) }, options);

  it("reads the Join link's address, and offers the tier in the creator's look", async () => {
    expect(joinTarget(new URLSearchParams({ page: payee.ending, tier: goldId, interval: "year" }))).toEqual({ ending: payee.ending, tierId: goldId, interval: "year" });
    expect(joinTarget(new URLSearchParams({ page: payee.ending }))).toBeNull();
    const offer = await loadJoinOffer(db(), { ending: payee.ending, tierId: goldId, interval: "year" });
    expect(offer).toMatchObject({ kind: "SUCCESS", offer: { payeeName: `Page of ${payee.uid}`, interval: "year", closed: null, tier: { name: "Gold", monthlyPrice: 500, yearlyPrice: 5000, spotsLeft: null } } });
    expect(offer.kind === "SUCCESS" && "welcomeMessage" in offer.offer.tier).toBe(false);
    expect(await loadJoinOffer(db(), { ending: payee.ending, tierId: "tier_nope", interval: null })).toMatchObject({ code: "not-found" });
  });

  it("opens the provider's subscription checkout for a pending membership, yearly and paying more, with the platform's fee", async () => {
    const started = await join({ interval: "year", amount: "60", memberName: "  Sam  ", private: true });
    expect(started).toMatchObject({ kind: "SUCCESS" });
    if (started.kind !== "SUCCESS") return;
    expect(started.membershipId).toMatch(/^mem_[A-Za-z0-9_-]{16}$/);
    expect(started.url).toBe(fake.state.url(started.membershipId));
    expect(fake.calls.at(-1)).toEqual({
      idempotencyKey: `membership_checkout_${started.membershipId}`,
      membershipId: started.membershipId,
      destinationAccountId: payee.accountId,
      amount: 6000,
      currency: "usd",
      interval: "year",
      applicationFeePercent: 7,
      productName: `Gold membership · Page of ${payee.uid}`,
      memberEmail: "fan@example.com",
      successUrl: `http://app.test/app/memberships/welcome?membership=${started.membershipId}`,
      cancelUrl: `http://bio.test/${payee.ending}`,
    });
    const [row] = await db().select().from(memberships).where(eq(memberships.id, started.membershipId));
    expect(row).toMatchObject({
      status: "pending",
      tierId: goldId,
      bioPageId: payee.pageId,
      creatorUid: payee.uid,
      memberUid: null,
      memberEmail: "fan@example.com",
      memberName: "Sam",
      private: true,
      interval: "year",
      amount: 6000,
      providerCheckoutId: `cs_${started.membershipId}`,
      checkoutUrl: started.url,
    });
  });

  it("says every field's problem at once: below the price, above the most, no address for a guest", async () => {
    expect(await join({ amount: "4.99", memberEmail: "" })).toMatchObject({
      code: "invalid-argument",
      fieldErrors: { amount: "The least you can pay is the tier's price, $5/month", memberEmail: "Enter your email: your member link and receipts go there" },
    });
    expect(await join({ interval: "year", amount: "1000.01", memberEmail: "nope", memberName: "x".repeat(100) })).toMatchObject({
      fieldErrors: { amount: "The most you can pay is $1,000/year", memberEmail: "Enter a valid email address", memberName: "Must be under 100 characters" },
    });
    expect(await join({ interval: "week" })).toMatchObject({ fieldErrors: { interval: "Gold is sold by the month only" } });
  });

  it("uses a signed-in fan's own address when the field is blank, and records who joined", async () => {
    const started = await join({ memberEmail: "" }, { joiner: { uid: payee.uid, email: "me@example.com" } });
    if (started.kind !== "SUCCESS") throw new Error(JSON.stringify(started));
    const [row] = await db().select().from(memberships).where(eq(memberships.id, started.membershipId));
    expect(row).toMatchObject({ memberEmail: "me@example.com", memberUid: payee.uid, interval: "month", amount: 500 });
  });

  it("gives the same browser sending the same form its open checkout back, and a changed form a new one", async () => {
    const first = await join({ amount: "8" });
    if (first.kind !== "SUCCESS") throw new Error("not started");
    const calls = fake.calls.length;
    expect(await join({ amount: "8" }, { token: first.membershipId })).toEqual(first);
    expect(fake.calls.length).toBe(calls);
    const other = await join({ amount: "9" }, { token: first.membershipId });
    expect(other.kind === "SUCCESS" && other.membershipId).not.toBe(first.membershipId);
  });

  it("refuses a paused or full tier, and a page that cannot take payments, with no row", async () => {
    const count = async () => (await db().select().from(memberships).where(eq(memberships.bioPageId, payee.pageId))).length;
    const before = await count();
    await setTierStatus(db(), { uid: payee.uid }, goldId, "pause");
    expect(await join()).toMatchObject({ code: "aborted", reason: "TIER_PAUSED", message: `Page of ${payee.uid} isn't taking new Gold members right now.` });
    expect(await loadJoinOffer(db(), { ending: payee.ending, tierId: goldId, interval: null })).toMatchObject({ offer: { closed: `Page of ${payee.uid} isn't taking new Gold members right now.` } });
    await setTierStatus(db(), { uid: payee.uid }, goldId, "retire");
    expect(await join()).toMatchObject({ code: "not-found" });
    await setTierStatus(db(), { uid: payee.uid }, goldId, "resume");

    const limited = await createTier(db(), { uid: payee.uid }, payee.pageId, { name: "Inner circle", monthlyPrice: "20", yearlyPrice: "", benefits: "", memberLimit: "1", welcomeMessage: "" });
    if (limited.kind !== "SUCCESS") throw new Error("no tier");
    const taken = await join({}, { tierId: limited.tier.id });
    if (taken.kind !== "SUCCESS") throw new Error("not started");
    await db().update(memberships).set({ status: "active" }).where(eq(memberships.id, taken.membershipId));
    expect(await join({}, { tierId: limited.tier.id })).toMatchObject({ code: "aborted", reason: "TIER_FULL", message: "Inner circle is full: every place is taken." });

    const waiting = await seedPayee(db(), sandbox.provider, { complete: false });
    const theirs = await createTier(db(), { uid: waiting.uid }, waiting.pageId, { name: "Gold", monthlyPrice: "5", yearlyPrice: "", benefits: "", memberLimit: "", welcomeMessage: "" });
    if (theirs.kind !== "SUCCESS") throw new Error("no tier");
    const refused = await startMembershipCheckout(db(), fake.provider, { ending: waiting.ending, tierId: theirs.tier.id, values: form(), joiner: null, client: client() }, options);
    expect(refused).toMatchObject({ code: "aborted", reason: "CANNOT_TAKE_PAYMENTS" });
    expect(await count()).toBe(before + 1);
  });

  it("leaves no row when the provider cannot open the checkout, and follows only the provider's own pages", async () => {
    const before = (await db().select().from(memberships)).length;
    fake.state.down = true;
    try {
      expect(await join({ amount: "11" })).toMatchObject({ code: "unavailable", message: "The checkout could not be opened. Please try again in a moment." });
    } finally {
      fake.state.down = false;
    }
    expect((await db().select().from(memberships)).length).toBe(before);
    const url = fake.state.url;
    fake.state.url = () => "https://evil.example/pay";
    try {
      expect(await join({ amount: "12" })).toMatchObject({ code: "bad-gateway" });
    } finally {
      fake.state.url = url;
    }
  });

  it("counts a guest's new checkouts against their network's checkout limit, as tips are counted", async () => {
    const network = { ip: "198.18.7.1", reuseToken: null };
    const results = [];
    for (let i = 0; i < 11; i++) {
      results.push(await startMembershipCheckout(db(), fake.provider, { ending: payee.ending, tierId: goldId, values: form({ amount: String(20 + i) }), joiner: null, client: network }, options));
    }
    expect(results.slice(0, 10).every((result) => result.kind === "SUCCESS")).toBe(true);
    expect(results[10]).toMatchObject({ code: "resource-exhausted", retryAfterSeconds: expect.any(Number) });
  });

  it("welcomes the member once the provider says the checkout was paid, with the tier's message", async () => {
    const started = await join({ memberEmail: "sam@example.com", amount: "13" });
    if (started.kind !== "SUCCESS") throw new Error("not started");
    expect(await readWelcome(db(), fake.provider, started.membershipId, null)).toMatchObject({ state: "confirming", welcomeMessage: "", memberEmail: "s•••@example.com", price: "$13/month", tierName: "Gold" });
    fake.paid.add(`cs_${started.membershipId}`);
    expect(await readWelcome(db(), fake.provider, started.membershipId, started.membershipId)).toMatchObject({ state: "joined", welcomeMessage: "Welcome to Gold!", memberEmail: "sam@example.com" });
    await db().update(memberships).set({ status: "expired" }).where(eq(memberships.id, started.membershipId));
    expect(await readWelcome(db(), fake.provider, started.membershipId, null)).toMatchObject({ state: "lapsed", welcomeMessage: "" });
    expect(await readWelcome(db(), fake.provider, "mem_unknownunknown12", null)).toBeNull();
    expect(await whyMembershipPayeeCannotBePaid(db(), started.membershipId)).toBeNull();
    await db().update(user).set({ disabled: true }).where(eq(user.id, payee.uid));
    try {
      expect(await whyMembershipPayeeCannotBePaid(db(), started.membershipId)).toBe("This page is unavailable. It can't take payments.");
      expect(await join()).toMatchObject({ code: "aborted", reason: "OWNER_UNAVAILABLE" });
    } finally {
      await db().update(user).set({ disabled: false }).where(eq(user.id, payee.uid));
    }
  });
});
