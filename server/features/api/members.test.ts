import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { membershipTiers, memberships, sponsorSessions } from "#server/platform/db/schema";
import type { PaymentProvider } from "#server/providers/payments/port";
import { apiHarness } from "#tests/support/api";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { seedPayee } from "#tests/support/payments";
import { testSandbox } from "#tests/support/test-sandbox";

describe.each(ENGINES)("members through the API on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  // The sandbox, but its membership billing only records the ends asked of it (or fails when told to):
  // memberships here are rows of the test's own, unknown to any provider.
  const ended: string[] = [];
  let billingDown = false;
  let watched: PaymentProvider | null = null;
  const provider = () =>
    (watched ??= new Proxy(sandbox.provider, {
      get(target, property, receiver) {
        if (property === "endMembershipNow")
          return async (input: { idempotencyKey: string; subscriptionId: string }) => {
            if (billingDown) throw new Error("provider down");
            ended.push(`${input.idempotencyKey} ${input.subscriptionId}`);
          };
        if (property === "readMembershipState") return async () => ({});
        return Reflect.get(target, property, receiver) as unknown;
      },
    }));
  const api = apiHarness(database, { provider });
  const db = () => database.db;

  it("lists the caller's members newest first by cursor, filtered by state, and reads one with its paid periods", async () => {
    const payee = await seedPayee(db(), sandbox.provider);
    const tierId = `t_${payee.uid}`;
    await db().insert(membershipTiers).values({ id: tierId, bioPageId: payee.pageId, name: "Gold", monthlyPrice: 500, yearlyPrice: 5000 });
    const base = { tierId, bioPageId: payee.pageId, creatorUid: payee.uid, provider: "sandbox", destinationAccountId: payee.accountId, memberEmail: "fan@api.example" };
    const id = (n: number) => `${payee.uid}_m${n}`;
    await db().insert(memberships).values([
      { ...base, id: id(1), status: "active", amount: 500, startedAt: new Date("2026-01-01T00:00:00Z"), memberName: "First" },
      { ...base, id: id(2), status: "active", interval: "year", amount: 5000, startedAt: new Date("2026-01-03T00:00:00Z") },
      { ...base, id: id(3), status: "ended", amount: 500, startedAt: new Date("2026-01-02T00:00:00.000100Z"), endedAt: new Date("2026-02-01T00:00:00Z") },
      { ...base, id: id(4), status: "pending", amount: 500 },
    ]);
    await db().insert(sponsorSessions).values({
      id: `ss_${id(2)}`,
      kind: "membership",
      membershipId: id(2),
      provider: "sandbox",
      posterUid: payee.uid,
      destinationAccountId: payee.accountId,
      amount: 5000,
      message: "",
      status: "completed",
      paymentIntentId: `pi_${id(2)}`,
      created: new Date("2026-01-02T00:00:01Z"),
    });
    const key = await api.keyFor(payee.uid, ["members:read"]);

    const first = await api.call("GET", "/members?limit=2", { key });
    expect(first.status).toBe(200);
    expect(first.body.data.map((m: { id: string }) => m.id)).toEqual([id(2), id(3)]);
    expect(first.body.data[0]).toMatchObject({ interval: "year", amount: 5000, monthlyAmount: 417, state: "active", paidPeriods: [{ paymentId: `ss_${id(2)}`, amount: 5000, status: "completed" }] });
    const second = await api.call("GET", `/members?limit=2&cursor=${first.body.nextCursor}`, { key });
    expect(second.body.data.map((m: { id: string }) => m.id)).toEqual([id(1)]);
    expect(second.body.nextCursor).toBeNull();

    const ended = await api.call("GET", "/members?state=ended", { key });
    expect(ended.body.data.map((m: { id: string }) => m.id)).toEqual([id(3)]);
    expect((await api.call("GET", "/members?cursor=nonsense", { key })).status).toBe(400);

    const one = await api.call("GET", `/members/${id(1)}`, { key });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: id(1), name: "First", email: "fan@api.example", state: "active", joinedAt: "2026-01-01T00:00:00.000Z", paidPeriods: [] });
    // A checkout never paid was never a member.
    expect((await api.call("GET", `/members/${id(4)}`, { key })).status).toBe(404);

    const stranger = await api.keyFor(await api.newAccount("Stranger"), ["members:read"]);
    expect((await api.call("GET", "/members", { key: stranger })).body.data).toEqual([]);
    expect((await api.call("GET", `/members/${id(1)}`, { key: stranger })).status).toBe(404);
  });

  it("cancels the caller's member once, keeps the message for the member's ended mail, and refuses what it cannot do", async () => {
    const payee = await seedPayee(db(), sandbox.provider);
    const tierId = `t_${payee.uid}`;
    await db().insert(membershipTiers).values({ id: tierId, bioPageId: payee.pageId, name: "Gold", monthlyPrice: 500 });
    const base = { tierId, bioPageId: payee.pageId, creatorUid: payee.uid, provider: "sandbox", destinationAccountId: payee.accountId, amount: 500, startedAt: new Date("2026-01-01T00:00:00Z") };
    const id = (n: number) => `${payee.uid}_c${n}`;
    const email = `${payee.uid}@member.example`;
    await db().insert(memberships).values([
      { ...base, id: id(1), status: "active", providerSubscriptionId: `sub_${id(1)}`, memberEmail: email },
      { ...base, id: id(2), status: "ended", providerSubscriptionId: `sub_${id(2)}`, endedAt: new Date("2026-02-01T00:00:00Z") },
    ]);
    const key = await api.keyFor(payee.uid, ["members:write"]);

    expect((await api.call("POST", `/members/${id(1)}/cancel`, { key, body: { message: "x".repeat(1001) } })).status).toBe(400);
    billingDown = true;
    const down = await api.call("POST", `/members/${id(1)}/cancel`, { key, body: { message: "Thank you" } });
    expect([down.status, down.body.error.code]).toEqual([503, "provider_unavailable"]);
    billingDown = false;
    const stranger = await api.keyFor(await api.newAccount("Stranger"), ["members:write"]);
    expect((await api.call("POST", `/members/${id(1)}/cancel`, { key: stranger, body: {} })).status).toBe(404);
    const [untouched] = await db().select().from(memberships).where(eq(memberships.id, id(1)));
    expect(untouched!.cancelMessage).toBeNull();

    const done = await api.call("POST", `/members/${id(1)}/cancel`, { key, body: { message: "Thank you" } });
    expect([done.status, done.body]).toEqual([200, { id: id(1), alreadyCancelled: false }]);
    const again = await api.call("POST", `/members/${id(1)}/cancel`, { key, body: {} });
    expect(again.body).toEqual({ id: id(1), alreadyCancelled: true });
    expect(ended.filter((e) => e.endsWith(`sub_${id(1)}`))).toEqual([`membership_end_${id(1)} sub_${id(1)}`, `membership_end_${id(1)} sub_${id(1)}`]);
    const [row] = await db().select().from(memberships).where(eq(memberships.id, id(1)));
    expect(row!.cancelMessage).toBe("Thank you");

    const gone = await api.call("POST", `/members/${id(2)}/cancel`, { key, body: {} });
    expect([gone.status, gone.body.error.code]).toEqual([409, "already_ended"]);
  });
});
