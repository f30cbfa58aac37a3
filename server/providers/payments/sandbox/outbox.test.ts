import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { startTestReceiver } from "#tests/support/sandbox-webhook-receiver";
import { sandboxEvents } from "#server/providers/payments/sandbox/schema";
import { createSandboxOutbox, pendingSandboxEvents, recordSandboxEvent } from "./outbox";
import { createSandboxProvider } from "./provider";
import { EVERY_PAYEE_PAYABLE } from "#server/providers/payments/sandbox/pay";

const SECRET = "a-session-secret-of-at-least-32-characters";
const accountUpdated = (accountId: string) =>
  ({ type: "account.updated", accountId, chargesEnabled: true, payoutsEnabled: true, detailsSubmitted: true }) as const;

describe.each(ENGINES)("sandbox event outbox on %s", (engine) => {
  const database = migratedDatabase(engine);
  const clock = { now: new Date("2026-11-22T18:00:00Z") };
  const checker = createSandboxProvider({ db: null as never, config: { PUBLIC_ORIGIN: "http://app.test" }, sessionSecret: SECRET, whyPayeeCannotBePaid: EVERY_PAYEE_PAYABLE, now: () => clock.now });
  let receiver: Awaited<ReturnType<typeof startTestReceiver>>;
  let outbox: ReturnType<typeof createSandboxOutbox>;

  beforeAll(async () => {
    receiver = await startTestReceiver((raw, header) => checker.parseWebhook(raw, header));
    outbox = createSandboxOutbox({
      db: database.db,
      endpoint: receiver.url,
      signingKey: (await import("./signing")).webhookSigningKey(SECRET),
      retryDelaysMs: [1_000, 60_000],
      now: () => clock.now,
    });
  });
  afterAll(async () => {
    await outbox.close();
    await receiver.close();
  });

  it("stores an event only with the change it reports: a rolled-back transaction stores none", async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await recordSandboxEvent(tx, accountUpdated("acct_sbx_rolled_back"), clock.now);
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await pendingSandboxEvents(database.db)).toEqual([]);
    const stored = await database.db.transaction((tx) => recordSandboxEvent(tx, accountUpdated("acct_sbx_kept"), clock.now));
    expect(await pendingSandboxEvents(database.db)).toEqual([expect.objectContaining({ id: stored.eventId, type: "account.updated", attempts: 0 })]);
  });

  it("retries a failed delivery after its delay, then marks it delivered and never sends it again", async () => {
    receiver.failNextDeliveries(1);
    expect(await outbox.deliverDue()).toBe(0);
    let [row] = await pendingSandboxEvents(database.db);
    expect(row).toMatchObject({ attempts: 1, lastError: "HTTP 500" });
    expect(row!.nextAttemptAt.getTime()).toBe(clock.now.getTime() + 1_000);
    // Not due yet: nothing is sent.
    expect(await outbox.deliverDue()).toBe(0);
    expect(receiver.received).toEqual([]);
    clock.now = new Date(clock.now.getTime() + 1_000);
    expect(await outbox.deliverDue()).toBe(1);
    expect(receiver.received).toEqual([expect.objectContaining({ provider: "sandbox", accountId: "acct_sbx_kept", eventId: row!.id })]);
    [row] = await database.db.select().from(sandboxEvents).where(eq(sandboxEvents.id, row!.id));
    expect(row).toMatchObject({ attempts: 2, lastError: null, deliveredAt: clock.now });
    expect(await outbox.deliverDue()).toBe(0);
    expect(receiver.received).toHaveLength(1);
  });

  it("gives up after the last retry and keeps the event, marked failed, for the operator", async () => {
    const stored = await recordSandboxEvent(database.db, accountUpdated("acct_sbx_unlucky"), clock.now);
    receiver.failNextDeliveries(3);
    for (const wait of [0, 1_000, 60_000]) {
      clock.now = new Date(clock.now.getTime() + wait);
      expect(await outbox.deliverDue()).toBe(0);
    }
    const [row] = await database.db.select().from(sandboxEvents).where(eq(sandboxEvents.id, stored.eventId));
    expect(row).toMatchObject({ attempts: 3, deliveredAt: null, lastError: "HTTP 500" });
    expect(row!.failedAt).toBeInstanceOf(Date);
    expect(await pendingSandboxEvents(database.db)).toEqual([]);
  });

  it("sends each event once when several workers drain at the same time", async () => {
    const ids = await Promise.all(Array.from({ length: 20 }, (_, i) => recordSandboxEvent(database.db, accountUpdated(`acct_sbx_many${i}`), clock.now)));
    receiver.received.length = 0;
    const other = createSandboxOutbox({ db: database.db, endpoint: receiver.url, signingKey: (await import("./signing")).webhookSigningKey(SECRET), now: () => clock.now });
    const counts = await Promise.all([outbox.deliverDue(), other.deliverDue(), outbox.deliverDue()]);
    expect(counts[0]! + counts[1]!).toBe(20);
    expect(receiver.received.map((e) => e.eventId).sort()).toEqual(ids.map((e) => e.eventId).sort());
  });
});
