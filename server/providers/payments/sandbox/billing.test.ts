import { and, eq, like } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import type { Config } from "#server/platform/config";
import { notifications, proMemberships, user } from "#server/platform/db/schema";
import { sandboxPrices, sandboxProCheckouts, sandboxSubscriptions } from "#server/providers/payments/sandbox/schema";
import { createMailer } from "#server/platform/email/mailer";
import { handleWebhookRequest } from "#server/features/payment-webhooks/http";
import { buildProSession } from "#server/domains/pro/checkout";
import { PRO_PRICE_SPECS } from "#server/domains/pro/prices";
import { getProStatus } from "#server/domains/pro/pro-status";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { silentLogger } from "#tests/support/payments";
import { applyPortalAction } from "./portal";
import { payProCheckout } from "./pro-pay";
import { createSandboxProvider, type SandboxProvider } from "./provider";
import { EVERY_PAYEE_PAYABLE } from "#server/providers/payments/sandbox/pay";

const SECRET = "a-session-secret-of-at-least-32-characters";
const ORIGIN = "http://app.test";
const GOOD = { number: "4242 4242 4242 4242", expiry: "12 / 34", cvc: "123", postalCode: "94107" };
const FAILS_RENEWAL = { ...GOOD, number: "4000 0000 0000 0341" };
const DECLINED = { ...GOOD, number: "4000 0000 0000 0002" };

describe.each(ENGINES)("sandbox Pro billing through the webhook intake on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;
  let sandbox: SandboxProvider;
  let uid: string;
  let deliveries: number;

  beforeEach(async () => {
    deliveries = 0;
    // The outbox delivers to our real endpoint's handler: signature check, record-once intake, dispatch.
    const config = { APP_NAME: "Sponsorgrid", SUPPORT_EMAIL: "support@test.example", PUBLIC_ORIGIN: ORIGIN, BIO_ORIGIN: "http://bio.test" } as Config;
    const mailer = createMailer({ db: db(), from: "Sponsorgrid <no-reply@test.example>", logger: silentLogger });
    const deliver: typeof fetch = async (_url, init) => {
      deliveries += 1;
      const request = new Request(`${ORIGIN}/api/payments/webhooks/sandbox`, { method: "POST", headers: init?.headers, body: init?.body });
      return handleWebhookRequest(request, "sandbox", { payments: sandbox, mailer, config, logger: silentLogger, db: db(), sessionSecret: SECRET });
    };
    sandbox = createSandboxProvider({ db: db(), config: { PUBLIC_ORIGIN: ORIGIN }, sessionSecret: SECRET, whyPayeeCannotBePaid: EVERY_PAYEE_PAYABLE, fetch: deliver });
    uid = `pro_${crypto.randomUUID()}`;
    await db().insert(user).values({ id: uid, name: "Pro Person", email: `${uid}@pro.example`, emailVerified: true });
  });

  const checkoutIdOf = (url: string) => new URL(url).pathname.split("/").pop()!;
  const buy = async (plan: "launchpad" | "star_power" | "limitless", card = GOOD) => {
    const session = await buildProSession(db(), sandbox, { uid, email: `${uid}@pro.example`, plan, returnTo: "/app/sponsors", publicOrigin: ORIGIN });
    if (!("url" in session)) throw new Error(`no checkout: ${JSON.stringify(session)}`);
    expect(session.url).toMatch(/^http:\/\/app\.test\/sandbox\/pro-checkout\/cs_sbx_/);
    return payProCheckout(db(), checkoutIdOf(session.url), card, sandbox.now());
  };
  const customerId = async () => (await db().select().from(proMemberships).where(eq(proMemberships.uid, uid)))[0]?.providerCustomerId ?? "";
  const notificationRows = async () =>
    (await db().select().from(notifications).where(and(eq(notifications.uid, uid), like(notifications.kind, "pro-%")))).map((n) => n.kind).sort();
  const status = () => getProStatus(db(), uid);

  it("ensures each plan's price once, however often it is asked", async () => {
    const first = await sandbox.ensureProPrices(PRO_PRICE_SPECS);
    const again = await Promise.all([sandbox.ensureProPrices(PRO_PRICE_SPECS), sandbox.ensureProPrices(PRO_PRICE_SPECS)]);
    expect(again).toEqual([first, first]);
    for (const spec of PRO_PRICE_SPECS) {
      expect(await db().select().from(sandboxPrices).where(eq(sandboxPrices.lookupKey, spec.lookupKey))).toHaveLength(1);
    }
  });

  it("a paid Launchpad checkout makes the person Pro through the delivered events, once; a double submit pays nothing more", async () => {
    const paid = await buy("launchpad");
    expect(paid).toMatchObject({ kind: "SUCCESS", outcome: "PAID", redirectTo: `${ORIGIN}/app/pro?checkout=success&returnTo=%2Fapp%2Fsponsors` });
    expect(await sandbox.deliverPendingSandboxEvents()).toBe(3);
    const [row] = await db().select().from(proMemberships).where(eq(proMemberships.uid, uid));
    const [checkout] = await db().select().from(sandboxProCheckouts).where(eq(sandboxProCheckouts.customerId, row!.providerCustomerId!));
    expect(await payProCheckout(db(), checkout!.id, GOOD, new Date())).toMatchObject({ kind: "SUCCESS", outcome: "ALREADY_PAID" });
    expect(await sandbox.deliverPendingSandboxEvents()).toBe(0);
    expect(await status()).toMatchObject({ isPro: true, plan: "launchpad", renewalFailed: false, cancelAtPeriodEnd: false });
    expect(await notificationRows()).toEqual(["pro-started"]);
    expect(await db().select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.customerId, await customerId()))).toHaveLength(1);
  });

  it("a declined card changes nothing and sends nothing", async () => {
    expect(await buy("star_power", DECLINED)).toMatchObject({ kind: "ERROR", code: "payment-required", field: "number", message: "Your card was declined." });
    expect(await sandbox.deliverPendingSandboxEvents()).toBe(0);
    expect((await status()).isPro).toBe(false);
  });

  it("cancel keeps Pro until the period ends; the test clock then ends it with one 'pro-ended'", async () => {
    await buy("launchpad");
    await sandbox.deliverPendingSandboxEvents();
    const customer = await customerId();
    expect(await applyPortalAction(db(), customer, { kind: "cancel" }, new Date())).toMatchObject({ kind: "SUCCESS" });
    await sandbox.deliverPendingSandboxEvents();
    expect(await status()).toMatchObject({ isPro: true, cancelAtPeriodEnd: true });
    expect(await applyPortalAction(db(), customer, { kind: "advance" }, new Date())).toMatchObject({ kind: "SUCCESS", message: "The period ended: the subscription is over." });
    await sandbox.deliverPendingSandboxEvents();
    expect((await status()).isPro).toBe(false);
    expect(await notificationRows()).toEqual(["pro-ended", "pro-started"]);
  });

  it("the 0341 card's renewal fails: past due, still Pro with the notice, one alert; a new card pays it", async () => {
    await buy("star_power", FAILS_RENEWAL);
    await sandbox.deliverPendingSandboxEvents();
    const customer = await customerId();
    await applyPortalAction(db(), customer, { kind: "advance" }, new Date());
    await sandbox.deliverPendingSandboxEvents();
    expect(await status()).toMatchObject({ isPro: true, plan: "star_power", renewalFailed: true });
    expect(await notificationRows()).toEqual(["pro-renewal-failed", "pro-started"]);
    expect(await applyPortalAction(db(), customer, { kind: "card", card: GOOD }, new Date())).toMatchObject({ message: "Card updated. The overdue renewal is paid." });
    await sandbox.deliverPendingSandboxEvents();
    expect(await status()).toMatchObject({ isPro: true, renewalFailed: false });
    expect(await notificationRows()).toEqual(["pro-renewal-failed", "pro-started"]);
  });

  it("switching plans in the portal keeps one subscription; the page's rules send a subscriber there", async () => {
    await buy("launchpad");
    await sandbox.deliverPendingSandboxEvents();
    expect(await buildProSession(db(), sandbox, { uid, email: "x@pro.example", plan: "star_power", returnTo: "/app", publicOrigin: ORIGIN })).toEqual({ kind: "SUCCESS", destination: "portal" });
    expect(await applyPortalAction(db(), await customerId(), { kind: "switch", plan: "star_power" }, new Date())).toMatchObject({ kind: "SUCCESS" });
    await sandbox.deliverPendingSandboxEvents();
    expect(await status()).toMatchObject({ isPro: true, plan: "star_power" });
    expect(await notificationRows()).toEqual(["pro-started"]);
  });

  it("Limitless is a one-time payment that outranks a subscription and survives its end", async () => {
    await buy("launchpad");
    await buy("limitless");
    await sandbox.deliverPendingSandboxEvents();
    expect(await status()).toMatchObject({ isPro: true, plan: "limitless", currentPeriodEnd: null });
    const customer = await customerId();
    await applyPortalAction(db(), customer, { kind: "cancel" }, new Date());
    await applyPortalAction(db(), customer, { kind: "advance" }, new Date());
    await sandbox.deliverPendingSandboxEvents();
    expect(await status()).toMatchObject({ isPro: true, plan: "limitless" });
    expect(await notificationRows()).toEqual(["pro-started"]);
    expect(deliveries).toBeGreaterThan(0);
  });
});
