import { eq, sql } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAuth } from "#server/domains/auth/auth";
import { loadConfig } from "#server/platform/config";
import {
  billingCustomers,
  bioPageViews,
  bioPages,
  connectedAccounts,
  emailOutbox,
  queuedTasks,
  hearts,
  ledgerEntries,
  logs,
  notificationPreferences,
  notifications,
  opportunityPosts,
  paymentEvents,
  proMemberships,
  sponsorSessions,
  totals,
  user,
} from "#server/platform/db/schema";
import { createMailer } from "#server/platform/email/mailer";
import { newOpportunityId } from "#server/domains/opportunities/ids";
import { OPPORTUNITY_POSTS_TOTAL } from "#server/domains/opportunities/totals";
import { sandboxPayments } from "#server/providers/payments/sandbox/schema";
import { receivePaymentEvent } from "#server/features/payment-webhooks/intake";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import type { PaymentProvider } from "#server/providers/payments/port";
import { events, payAtSandbox, sandboxAccount, seedPayee, seedSession, silentLogger, webhookDeps } from "#tests/support/payments";
import { testSandbox, withOutage } from "#tests/support/test-sandbox";
import { buyProAtSandbox, recordingCalls } from "#tests/support/test-sandbox-extras";
import { deleteAccount, deletionProofKind } from "./deletion";

const PASSWORD = "correct horse 1";

describe.each(ENGINES)("deleting one's account on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;
  let auth: ReturnType<typeof createAuth>;
  const sandbox = testSandbox(database);
  // The sandbox as the deletion sees it: its calls written down, and any of them made to fail as an unreachable provider's would.
  let provider: PaymentProvider;
  let down: ReturnType<typeof withOutage>["down"];
  let order: ReturnType<typeof recordingCalls>["order"];
  /** What was closed at the provider, in order. */
  const deleted = () => order.filter(({ method }) => method === "deleteCustomer" || method === "deleteConnectedAccount").map(({ input }) => input);
  let n = 0;
  // A name and address found nowhere else in the database, so any trace of them is theirs.
  let person: { id: string; email: string; name: string; accountId: string; customerId: string };

  beforeAll(() => {
    const mailer = createMailer({ db: db(), from: "Sponsorgrid <no-reply@localhost>", logger: silentLogger });
    auth = createAuth({ db: db(), config: loadConfig({}), secret: "a-test-secret-that-is-long-enough-123", mailer, logger: silentLogger });
  });

  beforeEach(async () => {
    const outage = withOutage(sandbox.provider);
    down = outage.down;
    ({ provider, order } = recordingCalls(outage.provider));
    n += 1;
    const email = `zelda.quartermaine${n}@leaving.example`;
    const name = `Zelda Quartermaine${n}`;
    const { user: created } = await auth.api.signUpEmail({ body: { name, email, password: PASSWORD } });
    // Payouts and Pro at the sandbox: an onboarded account, and Launchpad bought with the test card.
    const accountId = await sandboxAccount(sandbox.provider, created.id);
    const { customerId } = await sandbox.provider.createCustomer({ idempotencyKey: `customer_${created.id}`, uid: created.id, email });
    await buyProAtSandbox(db(), sandbox.provider, { customerId, uid: created.id, plan: "launchpad" });
    const [subscription] = (await sandbox.provider.readProState(customerId)).subscriptions;
    person = { id: created.id, email, name, accountId, customerId };
    await db().update(user).set({ emailVerified: true }).where(eq(user.id, created.id));
    await db().insert(connectedAccounts).values({ uid: created.id, stateToken: `state_leaving${n}`, providerAccountId: accountId, completed: true });
    await db().insert(billingCustomers).values({ uid: created.id, provider: "sandbox", customerId });
    await db().insert(proMemberships).values({ uid: created.id, plan: "launchpad", status: "active", providerCustomerId: customerId, providerSubscriptionId: subscription!.subscriptionId });
  });

  const total = async () => (await db().select({ total: totals.total }).from(totals).where(eq(totals.name, OPPORTUNITY_POSTS_TOTAL)))[0]?.total ?? 0;
  const post = async (posterUid: string, posterName: string) => {
    const id = newOpportunityId(new Date());
    await db().insert(opportunityPosts).values({ id, title: `Post by ${posterName}`, description: `Written by ${posterName}`, posterUid, posterName });
    await db()
      .insert(totals)
      .values({ name: OPPORTUNITY_POSTS_TOTAL, total: 1 })
      .onConflictDoUpdate({ target: totals.name, set: { total: sql`${totals.total} + 1` } });
    return id;
  };
  const heart = async (postId: string, uid: string) => {
    await db().insert(hearts).values({ id: `${postId}_${uid}`, postId, uid });
    await db().update(opportunityPosts).set({ totalHearts: sql`${opportunityPosts.totalHearts} + 1` }).where(eq(opportunityPosts.id, postId));
  };

  /** Rows of every table of ours (the product's, and the sandbox provider's own) whose text mentions the uid, the email or the name. */
  async function traces(): Promise<Record<string, number>> {
    const tables = (await db().execute(
      sql`select table_schema as schema, table_name as name from information_schema.tables
          where table_schema in ('public', 'sandbox') and table_type = 'BASE TABLE' order by 1, 2`,
    )) as unknown as { rows: { schema: string; name: string }[] };
    expect(tables.rows.length).toBeGreaterThan(30);
    const found: Record<string, number> = {};
    for (const { schema, name } of tables.rows) {
      const needles = [person.id, person.email, person.name].map((needle) => `%${needle.toLowerCase()}%`);
      const result = (await db().execute(
        sql`select count(*)::int as n from ${sql.identifier(schema)}.${sql.identifier(name)} t
            where lower(row_to_json(t)::text) like ${needles[0]} or lower(row_to_json(t)::text) like ${needles[1]}
               or lower(row_to_json(t)::text) like ${needles[2]}`,
      )) as unknown as { rows: { n: number }[] };
      if (result.rows[0]!.n > 0) found[name] = result.rows[0]!.n;
    }
    return found;
  }

  it("asks a password account for its password, and refuses a wrong one without deleting anything", async () => {
    expect(await deletionProofKind(db(), person.id)).toBe("password");
    expect(await deleteAccount({ db: db(), auth, payments: provider }, person.id, { password: "" })).toMatchObject({ kind: "ERROR", code: "invalid-argument", field: "password" });
    expect(await deleteAccount({ db: db(), auth, payments: provider }, person.id, { password: "wrong horse 2" })).toMatchObject({
      kind: "ERROR",
      code: "unauthenticated",
      message: "Password is incorrect. Please try again.",
    });
    expect(await deleteAccount({ db: db(), auth, payments: provider }, person.id, { email: person.email })).toMatchObject({ kind: "ERROR", field: "password" });
    expect(deleted()).toEqual([]);
    expect(await db().select().from(user).where(eq(user.id, person.id))).toHaveLength(1);
  });

  it("lets the confirmation guess the password only a few times", async () => {
    const deps = { db: db(), auth, payments: provider };
    for (let i = 0; i < 5; i++) expect(await deleteAccount(deps, person.id, { password: `guess ${i} horse` })).toMatchObject({ code: "unauthenticated" });
    expect(await deleteAccount(deps, person.id, { password: PASSWORD })).toMatchObject({
      kind: "ERROR",
      code: "resource-exhausted",
      message: expect.stringMatching(/^Too many attempts\. Please try again in \d+ minutes?\.$/),
    });
    expect(await db().select().from(user).where(eq(user.id, person.id))).toHaveLength(1);
    expect(deleted()).toEqual([]);
  });

  it("asks an account without a password (Google) for its email address typed out", async () => {
    await db().execute(sql`delete from account where user_id = ${person.id}`);
    expect(await deletionProofKind(db(), person.id)).toBe("email");
    expect(await deleteAccount({ db: db(), auth, payments: provider }, person.id, { email: "someone@else.example" })).toMatchObject({ kind: "ERROR", field: "email" });
    expect(await db().select().from(user).where(eq(user.id, person.id))).toHaveLength(1);
    expect(await deleteAccount({ db: db(), auth, payments: provider }, person.id, { email: ` ${person.email.toUpperCase()} ` })).toEqual({ kind: "SUCCESS" });
    expect(await db().select().from(user).where(eq(user.id, person.id))).toHaveLength(0);
  });

  it.each(["deleteCustomer", "deleteConnectedAccount"] as const)("deletes nothing when the provider refuses %s, and says so", async (method) => {
    const mine = await post(person.id, person.name);
    down.add(method);
    const result = await deleteAccount({ db: db(), auth, payments: provider }, person.id, { password: PASSWORD });
    expect(result).toMatchObject({ kind: "ERROR", code: "unavailable", message: expect.stringContaining("so nothing was deleted") });
    expect(await db().select().from(user).where(eq(user.id, person.id))).toHaveLength(1);
    expect(await db().select().from(opportunityPosts).where(eq(opportunityPosts.id, mine))).toHaveLength(1);
    expect(await db().select().from(proMemberships).where(eq(proMemberships.uid, person.id))).toHaveLength(1);
  });

  it("closes payouts and Pro at the provider first, then leaves nothing personal in any table; payment records stay, detached", async () => {
    // What the person made: a post (hearted by someone else), a bio page, a heart on another post.
    const other = await seedPayee(db(), sandbox.provider);
    const mine = await post(person.id, person.name);
    const theirs = await post(other.uid, "Someone Else");
    await heart(mine, other.uid);
    await heart(theirs, person.id);
    await heart(theirs, other.uid);
    await db().insert(bioPages).values({ id: `pageleaving${n}`, uid: person.id, customEnding: `leaving_${n}`, name: `${person.name}'s page`, blurb: person.email });
    await db().insert(bioPageViews).values({ pageId: `pageleaving${n}`, uid: person.id, count: 3 });
    await db().insert(notifications).values({ uid: person.id, title: "Welcome", message: `Hello ${person.name}` });
    await db().insert(notificationPreferences).values({ uid: person.id, kind: "hearts", mail: true });
    await db().insert(emailOutbox).values({ to: person.email, from: "x@y.example", subject: "Verify", html: "h", text: "t" });
    // A password reset they asked for that has not run yet (a queued task names their address).
    await db().insert(queuedTasks).values({ id: `task_leaving${n}`, kind: "auth.password-reset", payload: { email: person.email.toUpperCase() } });
    await db().insert(logs).values({ uid: null, collection: "users", docId: person.email, description: "wrong-password" });

    // Money they received: a completed tip with its ledger entry, the provider's event and the sponsor's message.
    const receivingPage = { uid: person.id, accountId: person.accountId, pageId: `pageleaving${n}`, ending: `leaving_${n}` };
    const received = await payAtSandbox(db(), sandbox.provider, receivingPage, await seedSession(db(), receivingPage, { amount: 3000 }));
    await receivePaymentEvent(db(), events.checkout("checkout.completed", received), webhookDeps(db(), provider));
    // Money they paid, as a signed-in sponsor with their address, to someone who was told so.
    const paid = await payAtSandbox(db(), sandbox.provider, other, await seedSession(db(), other, { amount: 1500 }));
    await db().update(sponsorSessions).set({ sponsorUid: person.id, sponsorEmail: person.email, message: `From ${person.name}`, supporterName: person.name }).where(eq(sponsorSessions.id, paid.sessionId));
    await receivePaymentEvent(db(), events.checkout("checkout.completed", paid), webhookDeps(db(), provider));
    // A notification from before they named the supporter: it named the sponsor by address.
    await db().insert(notifications).values({ uid: other.uid, title: "Payment received", message: `You received $15.00 from ${person.email} as a tip.` });
    await db().insert(paymentEvents).values({ provider: "stripe", eventId: `evt_leaving${n}`, type: "customer.updated", payload: { metadata: { uid: person.id }, email: person.email } });

    const postsBefore = await total();
    expect(Object.keys(await traces()).length).toBeGreaterThan(5);

    expect(await deleteAccount({ db: db(), auth, payments: provider }, person.id, { password: PASSWORD })).toEqual({ kind: "SUCCESS" });

    // The provider closed Pro (the customer, and so its subscription) and the payout account.
    expect(deleted()).toEqual([{ customerId: person.customerId }, { accountId: person.accountId }]);
    // Paid, the payout account stays at the provider as a shell that can take nothing (as on Stripe), under its payment records.
    expect(await sandbox.provider.readAccount(person.accountId)).toMatchObject({ chargesEnabled: false, payoutsEnabled: false });
    expect(await db().select().from(sandboxPayments).where(eq(sandboxPayments.accountId, person.accountId))).toHaveLength(1);
    expect((await sandbox.provider.readProState(person.customerId)).subscriptions.map((s) => s.status)).toEqual(["canceled"]);
    // Nothing personal anywhere: not the uid, not the email, not the name.
    expect(await traces()).toEqual({});

    // Totals stay true: one post fewer, the other post lost only this person's heart.
    expect(await total()).toBe(postsBefore - 1);
    const [theirsNow] = await db().select().from(opportunityPosts).where(eq(opportunityPosts.id, theirs));
    expect(theirsNow!.totalHearts).toBe(1);
    expect(await db().select().from(hearts).where(eq(hearts.postId, theirs))).toHaveLength(1);

    // The payment records stay for the ledger and the provider, without the person.
    const [receivedNow] = await db().select().from(sponsorSessions).where(eq(sponsorSessions.id, received.sessionId));
    expect(receivedNow).toMatchObject({ posterUid: null, sponsorEmail: null, message: "", status: "completed", amount: 3000, bioPageId: null });
    const [paidNow] = await db().select().from(sponsorSessions).where(eq(sponsorSessions.id, paid.sessionId));
    expect(paidNow).toMatchObject({ posterUid: other.uid, sponsorUid: null, sponsorEmail: null, message: "", status: "completed" });
    expect(await db().select().from(ledgerEntries).where(eq(ledgerEntries.sessionId, received.sessionId))).toHaveLength(1);
    expect(await db().select().from(ledgerEntries).where(eq(ledgerEntries.sessionId, paid.sessionId))).toHaveLength(1);
    const [event] = await db().select().from(paymentEvents).where(eq(paymentEvents.eventId, `evt_leaving${n}`));
    expect(event).toMatchObject({ type: "customer.updated", payload: { redacted: "account deleted" } });
    // The other person's notification keeps its meaning without the address.
    const theirNotifications = await db().select().from(notifications).where(eq(notifications.uid, other.uid));
    expect(theirNotifications.map((row) => row.message)).toContain("You received $15.00 from a sponsor as a tip.");
    // The payment's own notification named them by the name they gave, and now says "Someone".
    expect(theirNotifications.map((row) => row.title)).toContain("Someone tipped you $15.00");
    expect(paidNow!.supporterName).toBeNull();

    // Signing in again finds no account.
    expect(await db().select().from(user).where(eq(user.email, person.email))).toEqual([]);
  });
});
