import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { memberships } from "#server/platform/db/schema";
import { emailOutbox } from "#server/platform/db/schema/email";
import type { Db } from "#server/platform/db/client";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { webhookDeps } from "#tests/support/payments";
import { fakeMembershipBilling, seedMembership, seedPageWithTiers, TEST_MEMBER_KEY } from "#tests/support/member-page-fixtures";
import { signMemberToken } from "./member-link";
import { PROVIDER_UNREACHABLE_MESSAGE, runMemberAction, sendNewMemberLinks, type MemberActionRequest } from "./member-actions";
import { maskedEmail, readMemberPage } from "./member-page";

const ORIGIN = "http://app.test";
const NOW = new Date("2030-01-01T00:00:00Z");

describe.each(ENGINES)("the member's own changes on %s", (engine) => {
  const database = migratedDatabase(engine);

  async function setUp(db: Db, over: Parameters<typeof seedMembership>[2] = {}, options: Parameters<typeof fakeMembershipBilling>[0] = {}) {
    const page = await seedPageWithTiers(db, [
      { name: "Bronze", monthlyPrice: 300, yearlyPrice: 3000 },
      { name: "Silver", monthlyPrice: 800, yearlyPrice: 8000 },
      { name: "Monthly only", monthlyPrice: 500 },
      { name: "Paused", monthlyPrice: 900, status: "paused" },
      { name: "Full", monthlyPrice: 900, memberLimit: 1 },
    ]);
    const [bronze, silver, monthlyOnly, paused, full] = page.tierIds as [string, string, string, string, string];
    await seedMembership(db, { ...page, tierId: full });
    const id = await seedMembership(db, { ...page, tierId: bronze }, { amount: 300, ...over });
    const [row] = await db.select().from(memberships).where(eq(memberships.id, id));
    const { provider, calls } = fakeMembershipBilling(options);
    const deps = { ...webhookDeps(db, provider), memberLinkKey: TEST_MEMBER_KEY };
    const token = signMemberToken(TEST_MEMBER_KEY, id, 1);
    const act = (request: MemberActionRequest) => runMemberAction(db, deps, token, request, { publicOrigin: ORIGIN, now: NOW });
    const current = async () => (await db.select().from(memberships).where(eq(memberships.id, id)))[0]!;
    return { id, row: row!, token, deps, calls, act, current, tiers: { bronze, silver, monthlyOnly, paused, full } };
  }

  it("changes tier at the new tier's price from the next renewal, with a key of the membership, target and counter, then reads the provider back", async () => {
    const { db } = database;
    const { id, row, act, calls, current, tiers } = await setUp(db);
    const result = await act({ intent: "change-tier", tierId: tiers.silver });
    expect(result).toEqual({ kind: "SUCCESS", outcome: "CHANGED", message: "You're now a Silver member. From your next renewal on January 15, 2030, you pay $8/month." });
    expect(calls).toEqual([
      {
        method: "changeMembershipPrice",
        input: {
          idempotencyKey: `membership_${id}_price_${tiers.silver}_month_${row.updatedAt.getTime()}`,
          subscriptionId: row.providerSubscriptionId,
          amount: 800,
          interval: "month",
          productName: "Silver membership · Maya Makes",
        },
      },
      { method: "readMembershipState", input: row.providerSubscriptionId },
    ]);
    const after = await current();
    expect(after.tierId).toBe(tiers.silver);
    // The counter moved on: going back gets a key of its own, never an earlier call's answer.
    expect(after.updatedAt.getTime()).toBeGreaterThan(row.updatedAt.getTime());
    expect(await act({ intent: "change-tier", tierId: tiers.bronze })).toMatchObject({ kind: "SUCCESS" });
    const keys = calls.filter((call) => call.method === "changeMembershipPrice").map((call) => (call.input as { idempotencyKey: string }).idempotencyKey);
    expect(new Set(keys).size).toBe(2);
  });

  it("refuses a tier that is the same, paused, full, of another page, or not sold yearly to a yearly member, and calls no provider", async () => {
    const { db } = database;
    const { act, calls, tiers } = await setUp(db);
    expect(await act({ intent: "change-tier", tierId: tiers.bronze })).toMatchObject({ code: "aborted", reason: "SAME_TIER", message: "You're already a Bronze member." });
    expect(await act({ intent: "change-tier", tierId: tiers.paused })).toMatchObject({ code: "aborted", reason: "TIER_NOT_OPEN", message: "Paused is not taking new members right now." });
    expect(await act({ intent: "change-tier", tierId: tiers.full })).toMatchObject({ code: "aborted", reason: "TIER_FULL" });
    const other = await setUp(db);
    expect(await act({ intent: "change-tier", tierId: other.tiers.silver })).toMatchObject({ code: "not-found", reason: "NO_SUCH_TIER" });
    expect(await act({ intent: "change-tier" })).toMatchObject({ code: "not-found", reason: "NO_SUCH_TIER" });
    const yearly = await setUp(db, { interval: "year", amount: 3000 });
    expect(await yearly.act({ intent: "change-tier", tierId: yearly.tiers.monthlyOnly })).toMatchObject({
      code: "aborted",
      reason: "NO_YEARLY_PRICE",
      message: "Monthly only is sold by the month only. Switch to monthly billing first, then change your tier.",
    });
    expect(calls).toEqual([]);
    expect(yearly.calls).toEqual([]);
  });

  it("switches monthly to yearly at the tier's yearly price, and refuses what the tier does not sell", async () => {
    const { db } = database;
    const { id, row, act, calls } = await setUp(db);
    expect(await act({ intent: "switch-interval", interval: "year" })).toEqual({
      kind: "SUCCESS",
      outcome: "CHANGED",
      message: "You switched to yearly billing. From your next renewal on January 15, 2030, you pay $30/year.",
    });
    expect(calls[0]).toMatchObject({ method: "changeMembershipPrice", input: { idempotencyKey: `membership_${id}_price_${row.tierId}_year_${row.updatedAt.getTime()}`, amount: 3000, interval: "year" } });
    expect(await act({ intent: "switch-interval", interval: "month" })).toMatchObject({ kind: "ERROR", reason: "SAME_INTERVAL", message: "You already pay monthly." });
    expect(await act({ intent: "switch-interval", interval: "weekly" })).toMatchObject({ code: "invalid-argument" });

    const monthlyOnly = await setUp(db);
    await db.update(memberships).set({ tierId: monthlyOnly.tiers.monthlyOnly }).where(eq(memberships.id, monthlyOnly.id));
    expect(await monthlyOnly.act({ intent: "switch-interval", interval: "year" })).toMatchObject({ code: "aborted", reason: "NO_YEARLY_PRICE", message: "Monthly only is sold by the month only." });
    expect(monthlyOnly.calls).toEqual([]);
  });

  it("cancels at the period's end and resumes before it, each with its own key", async () => {
    const { db } = database;
    const { id, act, calls } = await setUp(db);
    expect(await act({ intent: "cancel" })).toEqual({
      kind: "SUCCESS",
      outcome: "CHANGED",
      message: "Your membership is cancelled. You stay a member until January 15, 2030, and you won't be charged again.",
    });
    expect(calls[0]).toMatchObject({ method: "setMembershipCancelAtPeriodEnd", input: { cancelAtPeriodEnd: true } });
    expect((calls[0]!.input as { idempotencyKey: string }).idempotencyKey).toMatch(new RegExp(`^membership_${id}_cancel_\\d+$`));
    // The writer sets the row from the provider's truth; the stand-in here does it by hand.
    await db.update(memberships).set({ status: "cancelled", cancelAtPeriodEnd: true }).where(eq(memberships.id, id));
    expect(await act({ intent: "cancel" })).toMatchObject({ reason: "CANCELLED", message: "Your membership is already cancelled: it ends on January 15, 2030." });
    expect(await act({ intent: "change-tier", tierId: "x" })).toMatchObject({ reason: "CANCELLED", message: "Your membership is cancelled. Resume it first, then change it." });
    expect(await act({ intent: "resume" })).toEqual({ kind: "SUCCESS", outcome: "CHANGED", message: "Your membership is back on. It renews on January 15, 2030." });
    expect(calls.filter((call) => call.method === "setMembershipCancelAtPeriodEnd").at(-1)).toMatchObject({ input: { cancelAtPeriodEnd: false } });
  });

  it("refuses to resume what is not cancelled or whose period is over, and every change of an ended membership", async () => {
    const { db } = database;
    expect(await (await setUp(db)).act({ intent: "resume" })).toMatchObject({ code: "aborted", reason: "NOT_CANCELLED" });
    const lapsed = await setUp(db, { status: "cancelled", cancelAtPeriodEnd: true, currentPeriodEnd: new Date("2029-12-01T00:00:00Z") });
    expect(await lapsed.act({ intent: "resume" })).toMatchObject({ code: "aborted", reason: "PERIOD_OVER" });
    const ended = await setUp(db, { status: "ended", endedAt: new Date("2029-12-01T00:00:00Z") });
    for (const intent of ["cancel", "resume", "update-card", "change-tier", "switch-interval"]) {
      expect(await ended.act({ intent })).toMatchObject({ code: "aborted", reason: "NOT_RUNNING" });
    }
    expect(await ended.act({ intent: "delete-everything" })).toMatchObject({ code: "invalid-argument", reason: "UNKNOWN_ACTION" });
    expect([...lapsed.calls, ...ended.calls]).toEqual([]);
  });

  it("opens the provider's card page back to the member page, and follows only the provider's billing pages", async () => {
    const { db } = database;
    const { row, token, act, calls } = await setUp(db, { status: "past_due" });
    expect(await act({ intent: "update-card" })).toEqual({ kind: "SUCCESS", outcome: "REDIRECT", url: "https://billing.test/card/1" });
    expect(calls).toEqual([
      {
        method: "createMembershipCardLink",
        input: { customerId: row.providerCustomerId, subscriptionId: row.providerSubscriptionId, returnUrl: `${ORIGIN}/membership/${token}?card=updated` },
      },
    ]);
    const elsewhere = await setUp(db, {}, { cardUrl: "https://evil.example/card" });
    expect(await elsewhere.act({ intent: "update-card" })).toMatchObject({ kind: "ERROR", code: "bad-gateway" });
  });

  it("a provider that does not answer changes nothing and says so", async () => {
    const { db } = database;
    const { row, act, current, tiers } = await setUp(db, {}, { fail: true });
    for (const request of [{ intent: "change-tier", tierId: tiers.silver }, { intent: "switch-interval", interval: "year" }, { intent: "cancel" }]) {
      expect(await act(request)).toEqual({ kind: "ERROR", code: "unavailable", reason: "PROVIDER_UNREACHABLE", message: PROVIDER_UNREACHABLE_MESSAGE });
    }
    expect(await current()).toMatchObject({ tierId: row.tierId, updatedAt: row.updatedAt });
  });

  it("a tampered or replaced link changes nothing", async () => {
    const { db } = database;
    const { id, deps, calls } = await setUp(db);
    const stale = signMemberToken(TEST_MEMBER_KEY, id, 0);
    expect(await runMemberAction(db, deps, stale, { intent: "cancel" }, { publicOrigin: ORIGIN })).toMatchObject({ code: "not-found", reason: "LINK_NOT_VALID" });
    expect(await runMemberAction(db, deps, `${signMemberToken(TEST_MEMBER_KEY, id, 1)}x`, { intent: "cancel" }, { publicOrigin: ORIGIN })).toMatchObject({ reason: "LINK_NOT_VALID" });
    expect(calls).toEqual([]);
  });

  it("new links: every earlier link stops and the new one is mailed to the member only, once", async () => {
    const { db } = database;
    const { id, token, deps } = await setUp(db, { memberEmail: "maya.fan@fan.example" });
    const sent = await sendNewMemberLinks(db, deps, token, { publicOrigin: ORIGIN });
    expect(sent).toEqual({ kind: "SUCCESS", sentTo: "m•••@fan.example", message: "We emailed a new link to m•••@fan.example. Every earlier link, this one included, no longer works." });
    expect((await readMemberPage(db, TEST_MEMBER_KEY, token)).kind).toBe("ERROR");
    const newToken = signMemberToken(TEST_MEMBER_KEY, id, 2);
    expect((await readMemberPage(db, TEST_MEMBER_KEY, newToken)).kind).toBe("SUCCESS");
    const mails = await db.select().from(emailOutbox).where(eq(emailOutbox.to, "maya.fan@fan.example"));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ subject: "Your new member link for Maya Makes" });
    expect(mails[0]!.text).toContain(`${ORIGIN}/membership/${newToken}`);
    // The old link asking again is refused, and mails nothing more.
    expect(await sendNewMemberLinks(db, deps, token, { publicOrigin: ORIGIN })).toMatchObject({ code: "not-found", reason: "LINK_NOT_VALID" });
    expect(await db.select().from(emailOutbox).where(eq(emailOutbox.to, "maya.fan@fan.example"))).toHaveLength(1);

    const noAddress = await setUp(db, { memberEmail: null });
    expect(await sendNewMemberLinks(db, noAddress.deps, noAddress.token, { publicOrigin: ORIGIN })).toMatchObject({ code: "aborted", reason: "NO_EMAIL" });
  });

  it("masks the address the new link went to", () => {
    expect(maskedEmail("ana@example.com")).toBe("a•••@example.com");
    expect(maskedEmail("nobody")).toBe("your address");
  });
});
