import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { sponsorSessions } from "#server/platform/db/schema";
import { receivePaymentEvent } from "#server/features/payment-webhooks/intake";
import { paymentFigures } from "#server/domains/payments/records/payment-figures";
import { sponsorPaymentInfo } from "#server/domains/payments/records/sponsor-sessions";
import { apiHarness, type ApiAnswer } from "#tests/support/api";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { events, payAtSandbox, seedPayee, seedSession, webhookDeps, type Payee, type SeededSession } from "#tests/support/payments";
import { testSandbox, withCallLog, withOutage } from "#tests/support/test-sandbox";

describe.each(ENGINES)("payments received through the API on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  // The provider the API's refunds reach: the real sandbox, with its calls logged and an outage a test can switch on.
  let watched: { provider: ReturnType<typeof withOutage>["provider"]; down: ReturnType<typeof withOutage>["down"]; callsOf: ReturnType<typeof withCallLog>["callsOf"] } | null = null;
  const provider = () => {
    if (!watched) {
      const reachable = withOutage(sandbox.provider);
      const log = withCallLog(reachable.provider);
      watched = { provider: log.provider, down: reachable.down, callsOf: log.callsOf };
    }
    return watched;
  };
  const api = apiHarness(database, { provider: () => provider().provider });
  const db = () => database.db;
  const refundCallsFor = (s: SeededSession) => provider().callsOf("refundPayment").filter((call) => call.paymentIntentId === s.paymentIntentId);

  let payee: Payee;
  let key: string;
  beforeEach(async () => {
    provider().down.clear();
    payee = await seedPayee(db(), sandbox.provider);
    key = await api.keyFor(payee.uid);
  });

  /** A payment of `amount` to `to`, paid at the sandbox and settled by its checkout.completed event. */
  async function paid(to: Payee, { amount = 4000, platformFee = 400 } = {}): Promise<SeededSession> {
    const s = await payAtSandbox(db(), sandbox.provider, to, await seedSession(db(), to, { amount, platformFee }));
    await receivePaymentEvent(db(), events.checkout("checkout.completed", s), webhookDeps(db(), sandbox.provider));
    return s;
  }
  const deliver = (event: Parameters<typeof receivePaymentEvent>[1]) => receivePaymentEvent(db(), event, webhookDeps(db(), sandbox.provider));
  const createdAt = (s: SeededSession, timestamp: string) => db().update(sponsorSessions).set({ created: sql`${timestamp}::timestamptz` }).where(eq(sponsorSessions.id, s.sessionId));

  it("GET /payments lists the payee's payments newest first, filtered as on My Sponsorships, a page at a time", async () => {
    const completed = await paid(payee);
    const refunded = await paid(payee);
    await deliver(events.chargeRefunded(refunded));
    const disputed = await paid(payee);
    await deliver(events.disputeChanged(disputed));
    const pending = await seedSession(db(), payee);
    const expired = await seedSession(db(), payee);
    await paid(await seedPayee(db(), sandbox.provider));
    await createdAt(completed, "2026-01-03T00:00:00Z");
    // The same millisecond, microseconds apart: a cursor must tell them apart.
    await createdAt(disputed, "2026-01-02T12:00:00.000900Z");
    await createdAt(refunded, "2026-01-02T12:00:00.000100Z");
    // Older than any checkout lives and never paid: the list shows it expired, as the page does.
    await createdAt(expired, "2026-01-01T00:00:00Z");

    const all = await api.call("GET", "/payments", { key });
    expect(all.status).toBe(200);
    expect(all.body.data.map((p: { id: string }) => p.id)).toEqual([completed.sessionId, disputed.sessionId, refunded.sessionId]);
    expect(all.body.nextCursor).toBeNull();
    expect(all.body.data[0]).toEqual({
      id: completed.sessionId,
      kind: "tip",
      status: "completed",
      amount: 4000,
      currency: "usd",
      sponsorEmail: expect.stringMatching(/@sponsor\.example$/),
      message: "Keep it up!",
      createdAt: "2026-01-03T00:00:00.000Z",
      refundStatus: "none",
      dispute: null,
    });
    expect(all.body.data[1]).toMatchObject({ status: "disputed", dispute: { status: "needs_response", evidenceDueBy: "2026-12-03T23:59:59.000Z" } });
    expect(all.body.data[2]).toMatchObject({ status: "refunded", refundStatus: "succeeded" });

    const ids = async (query: string) => (await api.call("GET", `/payments?${query}`, { key })).body.data.map((p: { id: string; status: string }) => [p.id, p.status]);
    expect(await ids("status=completed")).toEqual([[completed.sessionId, "completed"]]);
    expect(await ids("status=refunded")).toEqual([[refunded.sessionId, "refunded"]]);
    expect(await ids("status=pending")).toEqual([
      [pending.sessionId, "pending"],
      [expired.sessionId, "expired"],
    ]);

    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const page: ApiAnswer = await api.call("GET", `/payments?limit=1${cursor ? `&cursor=${cursor}` : ""}`, { key });
      expect(page.status).toBe(200);
      pages.push(page.body.data.map((p: { id: string }) => p.id));
      cursor = page.body.nextCursor;
    } while (cursor && pages.length < 10);
    expect(pages).toEqual([[completed.sessionId], [disputed.sessionId], [refunded.sessionId]]);
  });

  it("refuses a bad filter, limit or cursor with 400 and says which", async () => {
    const bad = await api.call("GET", "/payments?status=paid", { key });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: "invalid_request", fields: { "query.status": expect.any(String) } });
    expect((await api.call("GET", "/payments?limit=101", { key })).body.error.fields).toHaveProperty(["query.limit"]);
    const forged = await api.call("GET", `/payments?cursor=${Buffer.from('{"x":1}').toString("base64url")}`, { key });
    expect(forged.status).toBe(400);
    expect(forged.body.error.code).toBe("invalid_cursor");
  });

  it("GET /payments/{id} answers gross, fee and net in minor units, as the Payment info page", async () => {
    const s = await paid(payee, { amount: 4000, platformFee: 400 });
    const read = await api.call("GET", `/payments/${s.sessionId}`, { key });
    expect(read.status).toBe(200);
    // The sandbox charges Stripe's 2.9 % + 30: 146 on 4000, paid by the platform.
    expect(read.body).toMatchObject({
      id: s.sessionId,
      status: "completed",
      amount: 4000,
      currency: "usd",
      paymentReference: s.paymentIntentId,
      refundStatus: "none",
      dispute: null,
      figures: { gross: 4000, returned: 0, fee: 400, net: 3600, processorFee: 146 },
    });
    expect(read.body.movements).toEqual([{ kind: "payment", createdAt: expect.any(String), gross: 4000, fee: 400, net: 3600, processorFee: 146 }]);
    const info = await sponsorPaymentInfo(db(), payee.uid, s.sessionId);
    if (info.kind !== "SUCCESS") throw new Error(info.message);
    const page = paymentFigures(info.info);
    // The page's own figures (its `returned` is -0 here, which JSON writes 0).
    expect(read.body.figures).toEqual({ gross: page.gross, returned: page.returned || 0, fee: page.platformFee, net: page.net, processorFee: page.providerFee });

    await deliver(events.disputeChanged(s));
    const disputed = await api.call("GET", `/payments/${s.sessionId}`, { key });
    expect(disputed.body).toMatchObject({
      status: "disputed",
      dispute: { status: "needs_response", evidenceDueBy: "2026-12-03T23:59:59.000Z" },
      figures: { gross: 4000, returned: 4000, fee: 0, net: 0, processorFee: 146 + 1500 },
    });
    expect(disputed.body.movements.map((m: { kind: string }) => m.kind)).toEqual(["payment", "dispute"]);
  });

  it("POST /payments/{id}/refund refunds through the Refund button's function: once at the provider, finished by its webhook", async () => {
    const s = await paid(payee);
    const asked = await api.call("POST", `/payments/${s.sessionId}/refund`, { key });
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual({ paymentId: s.sessionId, status: "succeeded", alreadyRequested: false });
    expect(refundCallsFor(s)).toEqual([{ idempotencyKey: `refund_${s.sessionId}`, paymentIntentId: s.paymentIntentId }]);
    // Until the provider's event, the payment is completed with its refund on the way.
    expect((await api.call("GET", `/payments/${s.sessionId}`, { key })).body).toMatchObject({ status: "completed", refundStatus: "pending" });

    await deliver(events.chargeRefunded(s));
    const refunded = await api.call("GET", `/payments/${s.sessionId}`, { key });
    expect(refunded.body).toMatchObject({ status: "refunded", refundStatus: "succeeded", figures: { gross: 4000, returned: 4000, fee: 0, net: 0, processorFee: 146 } });

    // Already refunded: answered where the refund stands, nothing new asked of the provider.
    const again = await api.call("POST", `/payments/${s.sessionId}/refund`, { key });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ paymentId: s.sessionId, status: "succeeded", alreadyRequested: true });
    expect(refundCallsFor(s)).toHaveLength(1);
  });

  it("refuses to refund a payment that is not completed (409), and says when the provider is unreachable (503)", async () => {
    const unpaid = await seedSession(db(), payee);
    const refused = await api.call("POST", `/payments/${unpaid.sessionId}/refund`, { key });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: "not_refundable", message: "Only a completed payment can be refunded; this one is pending." });

    const s = await paid(payee);
    provider().down.add("refundPayment");
    const down = await api.call("POST", `/payments/${s.sessionId}/refund`, { key });
    expect(down.status).toBe(503);
    expect(down.body.error.code).toBe("unavailable");
  });

  it("an Idempotency-Key replays the first answer without a second refund, and is refused for another request", async () => {
    const s = await paid(payee);
    const headers = { "idempotency-key": `refund-${s.sessionId}` };
    const first = await api.call("POST", `/payments/${s.sessionId}/refund`, { key, headers });
    expect(first.status).toBe(200);
    expect(first.body.alreadyRequested).toBe(false);
    expect(first.headers.get("idempotent-replayed")).toBeNull();

    const retry = await api.call("POST", `/payments/${s.sessionId}/refund`, { key, headers });
    expect(retry.status).toBe(200);
    // The first answer itself: a new call would have said alreadyRequested.
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(refundCallsFor(s)).toHaveLength(1);

    const other = await paid(payee);
    const reused = await api.call("POST", `/payments/${other.sessionId}/refund`, { key, headers });
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe("idempotency_key_reused");
    expect(refundCallsFor(other)).toHaveLength(0);
  });

  it("another account's payment does not exist for you: 404 to read and to refund, and nothing is refunded", async () => {
    const someoneElse = await seedPayee(db(), sandbox.provider);
    const theirs = await paid(someoneElse);
    const read = await api.call("GET", `/payments/${theirs.sessionId}`, { key });
    expect(read.status).toBe(404);
    expect(read.body.error.code).toBe("not_found");
    const refund = await api.call("POST", `/payments/${theirs.sessionId}/refund`, { key });
    expect(refund.status).toBe(404);
    expect(refund.body.error.code).toBe("not_found");
    expect(refundCallsFor(theirs)).toHaveLength(0);
    expect((await api.call("GET", "/payments", { key })).body.data).toEqual([]);
    expect((await api.call("GET", "/payments/ss_nothing", { key })).status).toBe(404);
  });

  it("reading needs payments:read and refunding payments:write (403 insufficient_scope)", async () => {
    const s = await paid(payee);
    const reader = await api.keyFor(payee.uid, ["payments:read"]);
    expect((await api.call("GET", `/payments/${s.sessionId}`, { key: reader })).status).toBe(200);
    const refund = await api.call("POST", `/payments/${s.sessionId}/refund`, { key: reader });
    expect(refund.status).toBe(403);
    expect(refund.body.error.code).toBe("insufficient_scope");
    expect(refundCallsFor(s)).toHaveLength(0);

    const elsewhere = await api.keyFor(payee.uid, ["notifications:read", "payments:write"]);
    for (const path of ["/payments", `/payments/${s.sessionId}`]) {
      const refused = await api.call("GET", path, { key: elsewhere });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe("insufficient_scope");
    }
  });
});
