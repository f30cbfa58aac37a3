import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { webhookDeps } from "#tests/support/payments";
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

  it("ends it now at the provider once, keeps and mails the message with a member link, then refreshes the row", async () => {
    const fake = fakeBilling();
    const deps = { ...webhookDeps(database.db, fake.provider), memberLinkKey: KEY };
    const done = await cancelMember(database.db, deps, { uid: owner, membershipId: "ca_m1", message: "  I'm closing the tier. Thank you!  " });
    expect(done).toEqual({ kind: "SUCCESS", membershipId: "ca_m1", alreadyCancelled: false });
    expect(fake.calls).toEqual([
      { method: "endMembershipNow", input: { idempotencyKey: endMembershipKey("ca_m1"), subscriptionId: "sub_ca1" } },
      { method: "readMembershipState", input: "sub_ca1" },
    ]);
    const [row] = await database.db.select().from(memberships).where(eq(memberships.id, "ca_m1"));
    expect(row!.cancelMessage).toBe("I'm closing the tier. Thank you!");
    const mails = await mailTo("fan1@ca.example");
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Maya Makes ended your membership");
    expect(mails[0]!.text).toContain("I'm closing the tier. Thank you!");
    expect(mails[0]!.text).toContain("You will not be charged for it again.");
    const url = new URL(mails[0]!.meta.url!);
    expect(url.origin).toBe("http://app.test");
    expect(readMemberToken(KEY, url.pathname.replace("/membership/", ""))).toEqual({ membershipId: "ca_m1", linkVersion: 1 });

    // Asked again (a second tab): the provider hears the same key, and the member gets no second mail.
    const again = await cancelMember(database.db, deps, { uid: owner, membershipId: "ca_m1", message: "Another message" });
    expect(again).toEqual({ kind: "SUCCESS", membershipId: "ca_m1", alreadyCancelled: true });
    expect(fake.calls.filter((c) => c.method === "endMembershipNow").map((c) => c.input)).toEqual([
      { idempotencyKey: "membership_end_ca_m1", subscriptionId: "sub_ca1" },
      { idempotencyKey: "membership_end_ca_m1", subscriptionId: "sub_ca1" },
    ]);
    expect(await mailTo("fan1@ca.example")).toHaveLength(1);
  });

  it("changes nothing when the provider does not answer", async () => {
    const fake = fakeBilling();
    fake.fail(true);
    const deps = { ...webhookDeps(database.db, fake.provider), memberLinkKey: KEY };
    expect(await cancelMember(database.db, deps, { uid: owner, membershipId: "ca_m2", message: "Bye" })).toMatchObject({ kind: "ERROR", code: "unavailable", reason: "PROVIDER_UNAVAILABLE" });
    const [row] = await database.db.select().from(memberships).where(eq(memberships.id, "ca_m2"));
    expect(row!.cancelMessage).toBeNull();
    expect(await mailTo("fan2@ca.example")).toHaveLength(0);
    // With no message at all it goes through, and the member is still told.
    fake.fail(false);
    expect(await cancelMember(database.db, deps, { uid: owner, membershipId: "ca_m2", message: "" })).toMatchObject({ kind: "SUCCESS", alreadyCancelled: false });
    const [mail] = await mailTo("fan2@ca.example");
    expect(mail!.text).not.toContain("Their message");
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
