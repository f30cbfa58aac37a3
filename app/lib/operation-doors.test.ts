import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { refundRequests } from "#server/platform/db/schema";
import { receivePaymentEvent } from "#server/features/payment-webhooks/intake";
import { runOperation, type Caller } from "#server/features/operations/operation";
import { readPaymentInfo } from "#server/features/operations/payments/payment-info";
import { refundPayment, refundPaymentAsStaff } from "#server/features/operations/payments/refund";
import { pageCaller, runForPage } from "#app/lib/operation-door.server";
import { apiHarness } from "#tests/support/api";
import { CALLABLE_ORIGIN, serveCallables } from "#tests/support/callables";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { events, payAtSandbox, seedPayee, seedSession, webhookDeps, type Payee, type SeededSession } from "#tests/support/payments";
import { testSandbox } from "#tests/support/test-sandbox";
import { pageStatus } from "#tests/support/page-stop";

/**
 * What the payment operations guarantee whichever door they are reached by: another creator's
 * payment is no one's (not-found, and nothing changes) through the page, the SPEC §7.1 callable
 * and /api/v1 alike, each in its own wire format; and only staff reach staff's refund.
 */
describe.each(ENGINES)("payment operations through every door on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;
  const sandbox = testSandbox(database);
  const api = apiHarness(database, { provider: () => sandbox.provider });
  const deps = () => ({ db: db(), payments: sandbox.provider, config: { PUBLIC_ORIGIN: CALLABLE_ORIGIN, PLATFORM_FEE_PERCENT: 0, STRIPE_API_URL: undefined } });
  let callables: Awaited<ReturnType<typeof serveCallables>>;
  beforeEach(async () => {
    callables = await serveCallables(db(), sandbox.provider);
  });
  afterEach(() => callables.close());

  let owner: Payee;
  let stranger: Payee;
  let payment: SeededSession;
  beforeEach(async () => {
    owner = await seedPayee(db(), sandbox.provider);
    stranger = await seedPayee(db(), sandbox.provider);
    payment = await payAtSandbox(db(), sandbox.provider, owner, await seedSession(db(), owner));
    await receivePaymentEvent(db(), events.checkout("checkout.completed", payment), webhookDeps(db(), sandbox.provider));
  });
  const person = (payee: Payee) => ({ id: payee.uid, email: `${payee.uid}@pay.example`, emailVerified: true });
  const refundRow = async () => (await db().select().from(refundRequests).where(eq(refundRequests.sessionId, payment.sessionId)))[0];

  it("refuses a stranger's refund as not-found through the page, the callable and the API, and refunds nothing", async () => {
    const input = { sponsorSessionId: payment.sessionId };
    expect(await pageStatus(() => runForPage(refundPayment, { caller: pageCaller({ ...person(stranger), name: "x", image: null }), input, context: deps() }))).toBe(404);
    expect(await callables.call("refundSponsorship", input, { as: person(stranger) })).toEqual({ status: 404, body: { error: { status: "NOT_FOUND", message: "There is no such payment." } } });
    const viaApi = await api.call("POST", `/payments/${payment.sessionId}/refund`, { key: await api.keyFor(stranger.uid) });
    expect({ status: viaApi.status, code: viaApi.body.error.code, message: viaApi.body.error.message }).toEqual({ status: 404, code: "not_found", message: "There is no such payment." });
    expect(await refundRow()).toBeUndefined();
  });

  it("refuses a stranger's payment info as not-found through the page, the callable and the API", async () => {
    const input = { sponsorSessionId: payment.sessionId };
    expect(await pageStatus(() => runForPage(readPaymentInfo, { caller: pageCaller({ ...person(stranger), name: "x", image: null }), input, context: deps() }))).toBe(404);
    expect(await callables.call("sponsorPaymentInfo", input, { as: person(stranger) })).toMatchObject({ status: 404, body: { error: { status: "NOT_FOUND" } } });
    expect((await api.call("GET", `/payments/${payment.sessionId}`, { key: await api.keyFor(stranger.uid) })).status).toBe(404);
    // The owner reads it through each, the same payment.
    expect(await pageStatus(() => runForPage(readPaymentInfo, { caller: pageCaller({ ...person(owner), name: "x", image: null }), input, context: deps() }))).toBe("answered");
    expect((await callables.call("sponsorPaymentInfo", input, { as: person(owner) })).body).toMatchObject({ result: { transaction: { id: payment.sessionId } } });
    expect((await api.call("GET", `/payments/${payment.sessionId}`, { key: await api.keyFor(owner.uid) })).body).toMatchObject({ id: payment.sessionId });
  });

  it("answers an id a door's address could not name as no such payment (404) on the page and the API, and a callable's as invalid data", async () => {
    const tooLong = `ss_${"0".repeat(100)}`;
    expect(await pageStatus(() => runForPage(refundPayment, { caller: pageCaller({ ...person(owner), name: "x", image: null }), input: { sponsorSessionId: tooLong }, context: deps() }))).toBe(404);
    expect((await api.call("POST", `/payments/${tooLong}/refund`, { key: await api.keyFor(owner.uid) })).status).toBe(404);
    expect(await callables.call("refundSponsorship", { sponsorSessionId: tooLong }, { as: person(owner) })).toEqual({
      status: 400,
      body: { error: { status: "INVALID_ARGUMENT", message: "sponsorSessionId must be at most 100 characters." } },
    });
  });

  it("admits the same callers whichever door asks: a guest must sign in, an unverified person verify, and only staff refund as staff", async () => {
    const input = { sponsorSessionId: payment.sessionId };
    const guest: Caller = { kind: "guest" };
    const unverified: Caller = { kind: "person", uid: owner.uid, emailVerified: false };
    const refused = { guest: { kind: "ERROR", code: "unauthenticated", message: "Sign in first." }, unverified: { kind: "ERROR", code: "permission-denied", message: "Verify your email address first." } };
    expect(await runOperation(refundPayment, { caller: guest, input, deps: deps() })).toEqual(refused.guest);
    expect(await runOperation(refundPayment, { caller: unverified, input, deps: deps() })).toEqual(refused.unverified);
    expect(await runOperation(readPaymentInfo, { caller: guest, input, deps: deps() })).toEqual(refused.guest);
    expect(await runOperation(readPaymentInfo, { caller: unverified, input, deps: deps() })).toEqual(refused.unverified);
    // The owner is not staff: staff's refund (any payment, with a reason) is not theirs to ask.
    const asOwner = await runOperation(refundPaymentAsStaff, { caller: { kind: "person", uid: owner.uid, emailVerified: true }, input: { ...input, reason: "asked" }, deps: deps() });
    expect(asOwner).toMatchObject({ kind: "ERROR", code: "permission-denied" });
    expect(await pageStatus(() => runForPage(refundPaymentAsStaff, { caller: pageCaller({ ...person(owner), name: "x", image: null }), input: { ...input, reason: "asked" }, context: deps() }))).toBe(403);
    expect(await refundRow()).toBeUndefined();
  });
});
