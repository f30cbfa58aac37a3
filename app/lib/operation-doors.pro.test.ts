import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { proCheckouts, user } from "#server/platform/db/schema";
import { startProCheckout } from "#server/features/operations/pro/pro-checkout";
import { openProPortal } from "#server/features/operations/pro/pro-portal";
import { NO_PRO_PLAN_MESSAGE } from "#server/domains/pro/portal";
import type { PaymentProvider } from "#server/providers/payments/port";
import { pageCaller, runForPage } from "#app/lib/operation-door.server";
import { CALLABLE_ORIGIN, serveCallables } from "#tests/support/callables";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { testSandbox } from "#tests/support/test-sandbox";
import { recordingCalls } from "#tests/support/test-sandbox-extras";

/**
 * What Pro's checkout and billing portal guarantee whichever door they are reached by (the plans
 * page, My Account's Pro Portal button, SPEC §7.1's buildProSession and createPortalLink): one
 * open checkout per person and plan, and no portal for someone who never bought.
 */
describe.each(ENGINES)("Pro operations through every door on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;
  const sandbox = testSandbox(database);
  let provider: PaymentProvider;
  let seen: ReturnType<typeof recordingCalls>["seen"];
  let callables: Awaited<ReturnType<typeof serveCallables>>;
  beforeEach(async () => {
    ({ provider, seen } = recordingCalls(sandbox.provider));
    callables = await serveCallables(db(), provider);
  });
  afterEach(() => callables.close());
  const context = () => ({ db: db(), payments: provider, config: { PUBLIC_ORIGIN: CALLABLE_ORIGIN, PLATFORM_FEE_PERCENT: 0 } });

  async function newPerson() {
    const id = `pro_${crypto.randomBytes(5).toString("hex")}`;
    await db().insert(user).values({ id, name: id, email: `${id}@pro-doors.example`, emailVerified: true });
    return { id, email: `${id}@pro-doors.example`, emailVerified: true, name: id, image: null };
  }

  it("opens one checkout for a person and plan: the plans page's button after the callable hands out the same page, for the account's own address", async () => {
    const buyer = await newPerson();
    const called = await callables.call("buildProSession", { plan: "launchpad", returnTo: "/app/sponsors" }, { as: buyer });
    expect(called.status).toBe(200);
    const { url, destination } = called.body.result as { url: string; destination: string };
    expect(destination).toBe("checkout");
    const pressed = await runForPage(startProCheckout, { caller: pageCaller(buyer), input: { plan: "launchpad", returnTo: "/app/sponsors" }, context: context(), notFound: "answer" });
    expect(pressed).toEqual({ kind: "SUCCESS", destination: "checkout", url });
    expect(await db().select().from(proCheckouts).where(eq(proCheckouts.uid, buyer.id))).toHaveLength(1);
    expect(seen("createCustomer")).toEqual([expect.objectContaining({ uid: buyer.id, email: buyer.email })]);
  });

  it("has no portal for someone who never bought, through the page and the callable alike, and asks the provider for none", async () => {
    const never = await newPerson();
    const viaPage = await runForPage(openProPortal, { caller: pageCaller(never), input: { returnTo: "/app/account" }, context: context(), notFound: "answer" });
    expect(viaPage).toMatchObject({ kind: "ERROR", code: "aborted", reason: "NO_CUSTOMER", message: NO_PRO_PLAN_MESSAGE });
    expect(await callables.call("createPortalLink", null, { as: never })).toEqual({ status: 409, body: { error: { status: "ABORTED", message: NO_PRO_PLAN_MESSAGE } } });
    expect(seen("createPortalLink")).toEqual([]);
  });

  it("asks a guest to sign in before the plan is read, through the callable and the page door alike", async () => {
    expect(await callables.call("buildProSession", { plan: "nonsense" })).toMatchObject({ status: 401, body: { error: { message: "Sign in first." } } });
    const guest = await runForPage(startProCheckout, { caller: { kind: "guest" }, input: { plan: "nonsense" }, context: context(), notFound: "answer" }).catch((thrown: { init?: { status?: number } }) => thrown.init?.status);
    expect(guest).toBe(401);
    expect(seen("createProCheckout")).toEqual([]);
  });
});
