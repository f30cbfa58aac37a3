import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { webhookDeps } from "#tests/support/payments";
import { FakeMembershipBilling, seedPendingMembership } from "#tests/support/fake-membership-billing";
import { receivePaymentEvent } from "#server/features/payment-webhooks/intake";
import { bioPages, emailOutbox, membershipTiers, memberships, user } from "#server/platform/db/schema";
import type { MembershipBilling, PaymentProvider } from "#server/providers/payments/port";
import { cancelMember, endMembershipKey, readCancelMessage } from "#server/domains/memberships/creator-actions";
import { memberLinkKey, readMemberToken } from "#server/domains/memberships/member-link";
import { CANCEL_MESSAGE_MAX } from "#isomorphic/members";

const KEY = memberLinkKey("creator-actions-test-secret");

/** A provider whose membership billing only records what it was asked (and fails when told to). */
function fakeBilling() {
  const calls: { method: string; input: unknown }[] = [];
  let failing = false;
  const billing: Pick<MembershipBilling, "endMembershipNow" | "readMembershipState"> = {
    async endMembershipNow(input) {
      calls.push({ method: "endMembershipNow", input });
      if (failing) throw new Error("provider down");
    },
    async readMembershipState(subscriptionId) {
      calls.push({ method: "readMembershipState", input: subscriptionId });
      return {
        subscriptionId,
        customerId: "cus_1",
        membershipId: null,
        status: "canceled",
        amount: 500,
        currency: "usd",
        interval: "month",
        currentPeriodEnd: new Date(),
        cancelAtPeriodEnd: false,
        endedAt: new Date(),
        customerEmail: null,
        invoices: [],
      };
    },
  };
  return { provider: billing as unknown as PaymentProvider, calls, fail: (on: boolean) => (failing = on) };
}

describe("the creator's message", () => {
  it("is trimmed, may be empty, and has a limit", () => {
    expect(readCancelMessage("  Thanks for everything \r\n ")).toEqual({ kind: "SUCCESS", message: "Thanks for everything" });
    expect(readCancelMessage("")).toEqual({ kind: "SUCCESS", message: "" });
    expect(readCancelMessage("x".repeat(CANCEL_MESSAGE_MAX + 1))).toMatchObject({ kind: "ERROR", reason: "INVALID_FIELDS", fieldErrors: { message: expect.stringContaining(`${CANCEL_MESSAGE_MAX}`) } });
  });
});

describe.each(ENGINES)("cancelling a member on %s", (engine) => {
  const database = migratedDatabase(engine);
  const owner = "ca-owner";

  beforeAll(async () => {
    const db = database.db;
    await db.insert(user).values([
      { id: owner, name: "Owner", email: "ca-owner@ca.example", emailVerified: true },
      { id: "ca-other", name: "Other", email: "ca-other@ca.example", emailVerified: true },
    ]);
    await db.insert(bioPages).values({ id: "ca_page", uid: owner, customEnding: "ca_page", name: "Maya Makes" });
    await db.insert(membershipTiers).values({ id: "ca_tier", bioPageId: "ca_page", name: "Gold", monthlyPrice: 500 });
    const base = { tierId: "ca_tier", bioPageId: "ca_page", creatorUid: owner, provider: "sandbox", destinationAccountId: "acct_ca", amount: 500, startedAt: new Date("2026-01-01T00:00:00Z") };
    await db.insert(memberships).values([
      { ...base, id: "ca_m1", status: "active", providerSubscriptionId: "sub_ca1", memberEmail: "fan1@ca.example", memberName: "Fan One" },
      { ...base, id: "ca_m2", status: "past_due", providerSubscriptionId: "sub_ca2", memberEmail: "fan2@ca.example" },
      { ...base, id: "ca_m3", status: "ended", providerSubscriptionId: "sub_ca3", memberEmail: "fan3@ca.example", endedAt: new Date("2026-02-01T00:00:00Z") },
      { ...base, id: "ca_m4", status: "pending", memberEmail: "fan4@ca.example" },
    ]);
  });

  const mailTo = (to: string) => database.db.select().from(emailOutbox).where(eq(emailOutbox.to, to));

  it("ends it now at the provider once, keeps the message for the one ended mail with a member link, then refreshes the row", async () => {
    // A real member: joined through the writer, as the provider's events leave them.
    const fake = new FakeMembershipBilling();
    const deps = { ...webhookDeps(database.db, fake.provider), memberLinkKey: KEY };
    const seeded = await seedPendingMembership(database.db, { memberEmail: "joined@ca.example" });
    const { subscriptionId, events } = fake.join({ membershipId: seeded.membershipId, checkoutId: seeded.checkoutId, amount: 500 });
    for (const event of events) await receivePaymentEvent(database.db, event, deps);
    expect(await mailTo("joined@ca.example")).toHaveLength(1);

    const done = await cancelMember(database.db, deps, { uid: seeded.creatorUid, membershipId: seeded.membershipId, message: "  I'm closing the tier. Thank you!  " });
    expect(done).toEqual({ kind: "SUCCESS", membershipId: seeded.membershipId, alreadyCancelled: false });
    const [row] = await database.db.select().from(memberships).where(eq(memberships.id, seeded.membershipId));
    expect(row).toMatchObject({ status: "ended", cancelMessage: "I'm closing the tier. Thank you!" });
    expect(fake.state(subscriptionId).status).toBe("canceled");
    const mails = await mailTo("joined@ca.example");
    expect(mails.map((mail) => mail.subject)).toEqual(["Welcome: you're a Gold member of Maya Makes", "Your Gold membership of Maya Makes has ended"]);
    expect(mails[1]!.text).toContain("A message from Maya Makes: “I'm closing the tier. Thank you!”");
    expect(mails[1]!.text).toContain("You will not be charged again.");
    const url = new URL(mails[1]!.meta.url!);
    expect(readMemberToken(KEY, url.pathname.replace("/membership/", ""))).toEqual({ membershipId: seeded.membershipId, linkVersion: 1 });

    // Asked again (a second tab): it has ended, so nothing more happens and the member gets no second mail.
    const again = await cancelMember(database.db, deps, { uid: seeded.creatorUid, membershipId: seeded.membershipId, message: "Another message" });
    expect(again).toMatchObject({ kind: "ERROR", code: "aborted", reason: "ALREADY_ENDED" });
    expect(await mailTo("joined@ca.example")).toHaveLength(2);
  });

  it("changes nothing when the provider does not answer", async () => {
    const fake = fakeBilling();
    fake.fail(true);
    const deps = { ...webhookDeps(database.db, fake.provider), memberLinkKey: KEY };
    expect(await cancelMember(database.db, deps, { uid: owner, membershipId: "ca_m2", message: "Bye" })).toMatchObject({ kind: "ERROR", code: "unavailable", reason: "PROVIDER_UNAVAILABLE" });
    expect(fake.calls).toEqual([{ method: "endMembershipNow", input: { idempotencyKey: endMembershipKey("ca_m2"), subscriptionId: "sub_ca2" } }]);
    const [row] = await database.db.select().from(memberships).where(eq(memberships.id, "ca_m2"));
    expect(row!.cancelMessage).toBeNull();
    expect(await mailTo("fan2@ca.example")).toHaveLength(0);
    // Once it answers, it goes through with no message at all, kept as "" (cancelled by the creator, nothing to quote).
    fake.fail(false);
    expect(await cancelMember(database.db, deps, { uid: owner, membershipId: "ca_m2", message: "" })).toMatchObject({ kind: "SUCCESS", alreadyCancelled: false });
    const [after] = await database.db.select().from(memberships).where(eq(memberships.id, "ca_m2"));
    expect(after).toMatchObject({ cancelMessage: "", status: "ended" });
  });

  it("refuses another creator's member, one not started, one ended and a message too long, without asking the provider", async () => {
    const fake = fakeBilling();
    const deps = { ...webhookDeps(database.db, fake.provider), memberLinkKey: KEY };
    expect(await cancelMember(database.db, deps, { uid: "ca-other", membershipId: "ca_m1", message: "" })).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await cancelMember(database.db, deps, { uid: owner, membershipId: "ca_m4", message: "" })).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await cancelMember(database.db, deps, { uid: owner, membershipId: "ca_m3", message: "" })).toMatchObject({ kind: "ERROR", code: "aborted", reason: "ALREADY_ENDED" });
    expect(await cancelMember(database.db, deps, { uid: owner, membershipId: "ca_m1", message: "x".repeat(CANCEL_MESSAGE_MAX + 1) })).toMatchObject({ kind: "ERROR", code: "invalid-argument" });
    expect(fake.calls).toEqual([]);
  });
});
