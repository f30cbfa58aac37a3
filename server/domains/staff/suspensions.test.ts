import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { accountSuspensions, auditLog, emailOutbox, session, user } from "#server/platform/db/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { notificationDeps } from "#tests/support/payments";
import type { Actor } from "#server/platform/audit/audit-log";
import { accountDetail, searchAccounts } from "./accounts";
import { liftExpiredSuspensions, liftIfExpired, liftSuspension, parseUntil, suspendAccount, suspensionHasEnded } from "./suspensions";

const NOW = new Date("2026-11-26T12:00:00.000Z");
const LATER = new Date("2026-12-02T00:00:01.000Z");
const staff: Actor = { kind: "staff", id: "boss", email: "boss@staff.example" };

describe("parseUntil", () => {
  it("takes an empty date as open-ended and a later day as 00:00 UTC that day; refuses today, the past and nonsense", () => {
    expect(parseUntil("", NOW)).toEqual({ until: null });
    expect(parseUntil("2026-12-02", NOW)).toEqual({ until: new Date("2026-12-02T00:00:00.000Z") });
    expect(parseUntil("2026-11-26", NOW)).toMatchObject({ error: expect.stringMatching(/future/) });
    expect(parseUntil("2025-01-01", NOW)).toMatchObject({ error: expect.stringMatching(/future/) });
    expect(parseUntil("2026-02-30", NOW)).toMatchObject({ error: expect.stringMatching(/real date/) });
    expect(parseUntil("soon", NOW)).toMatchObject({ error: expect.any(String) });
  });
});

describe.each(ENGINES)("suspending accounts on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;
  const mail = () => notificationDeps(db());

  async function person(id: string, role: "user" | "admin" = "user") {
    await db().insert(user).values({ id, name: `Person ${id}`, email: `${id}@suspend.example`, emailVerified: true, role });
    await db().insert(session).values({ id: `s-${id}`, token: `t-${id}`, userId: id, expiresAt: new Date(Date.now() + 86_400_000) });
  }
  const disabled = async (id: string) => (await db().select({ d: user.disabled }).from(user).where(eq(user.id, id)))[0]!.d;
  const mailTo = async (id: string) => (await db().select().from(emailOutbox).where(eq(emailOutbox.to, `${id}@suspend.example`))).map((m) => ({ subject: m.subject, text: m.text }));
  const auditOf = async (id: string) => (await db().select().from(auditLog).where(eq(auditLog.subjectId, id))).map((r) => ({ action: r.action, actor: r.actorLabel, reason: r.reason }));

  it("suspends with a reason: disabled, signed out, recorded, audited and told by mail with the reason, end date and appeal address", async () => {
    await person("cara");
    const result = await suspendAccount(db(), mail(), staff, { uid: "cara", reason: "Spam links", until: "2026-12-20" }, NOW);
    expect(result).toMatchObject({ kind: "SUCCESS" });
    expect(await disabled("cara")).toBe(true);
    expect(await db().select().from(session).where(eq(session.userId, "cara"))).toEqual([]);
    const [record] = await db().select().from(accountSuspensions).where(eq(accountSuspensions.uid, "cara"));
    expect(record).toMatchObject({ reason: "Spam links", suspendedByLabel: "boss@staff.example", until: new Date("2026-12-20T00:00:00.000Z"), liftedAt: null });
    expect(await auditOf("cara")).toEqual([{ action: "account.suspend", actor: "boss@staff.example", reason: "Spam links" }]);
    const [letter] = await mailTo("cara");
    expect(letter!.subject).toMatch(/suspended/);
    expect(letter!.text).toContain("Reason: Spam links");
    expect(letter!.text).toContain("December 20, 2026");
    expect(letter!.text).toContain("support@test.example");
    expect((await accountDetail(db(), "cara")).kind === "SUCCESS" && (await accountDetail(db(), "cara"))).toMatchObject({ account: { disabled: true, suspensions: [{ reason: "Spam links" }] } });
  });

  it("refuses no reason, a past end date, oneself, staff, and a second suspension; nothing changes", async () => {
    await person("dan");
    await person("eve", "admin");
    expect(await suspendAccount(db(), mail(), staff, { uid: "dan", reason: "  ", until: "2020-01-01" }, NOW)).toMatchObject({
      code: "invalid-argument",
      fieldErrors: { reason: expect.any(String), until: expect.any(String) },
    });
    expect(await suspendAccount(db(), mail(), staff, { uid: "boss", reason: "x", until: "" }, NOW)).toMatchObject({ reason: "OWN_ACCOUNT" });
    expect(await suspendAccount(db(), mail(), staff, { uid: "eve", reason: "x", until: "" }, NOW)).toMatchObject({ reason: "STAFF_ACCOUNT" });
    expect(await suspendAccount(db(), mail(), staff, { uid: "nobody", reason: "x", until: "" }, NOW)).toMatchObject({ code: "not-found" });
    expect(await disabled("dan")).toBe(false);
    expect(await disabled("eve")).toBe(false);
    expect(await suspendAccount(db(), mail(), staff, { uid: "dan", reason: "first", until: "" }, NOW)).toMatchObject({ kind: "SUCCESS" });
    expect(await suspendAccount(db(), mail(), staff, { uid: "dan", reason: "again", until: "" }, NOW)).toMatchObject({ reason: "ALREADY_SUSPENDED" });
    expect(await auditOf("dan")).toHaveLength(1);
  });

  it("lifts with a reason: enabled, history kept, audited, told by mail; a second lift is refused", async () => {
    await person("finn");
    await suspendAccount(db(), mail(), staff, { uid: "finn", reason: "Fraud check", until: "" }, NOW);
    expect(await liftSuspension(db(), mail(), staff, { uid: "finn", reason: "" }, NOW)).toMatchObject({ fieldErrors: { liftReason: expect.any(String) } });
    expect(await liftSuspension(db(), mail(), staff, { uid: "finn", reason: "Cleared" }, NOW)).toEqual({ kind: "SUCCESS" });
    expect(await disabled("finn")).toBe(false);
    expect(await liftSuspension(db(), mail(), staff, { uid: "finn", reason: "Cleared" }, NOW)).toMatchObject({ reason: "NOT_SUSPENDED" });
    const [record] = await db().select().from(accountSuspensions).where(eq(accountSuspensions.uid, "finn"));
    expect(record).toMatchObject({ liftedByLabel: "boss@staff.example", liftReason: "Cleared", liftedAt: NOW });
    expect((await auditOf("finn")).map((r) => r.action)).toEqual(["account.suspend", "account.lift"]);
    expect((await mailTo("finn")).map((m) => m.subject)).toEqual([expect.stringMatching(/suspended/), expect.stringMatching(/active again/)]);
  });

  it("the job lifts only expired suspensions, once, as the scheduled job; sign-in lifts its own without waiting", async () => {
    await person("gail");
    await person("hal");
    await person("ida");
    await suspendAccount(db(), mail(), staff, { uid: "gail", reason: "a week", until: "2026-12-02" }, NOW);
    await suspendAccount(db(), mail(), staff, { uid: "hal", reason: "until lifted", until: "" }, NOW);
    await suspendAccount(db(), mail(), staff, { uid: "ida", reason: "a week too", until: "2026-12-02" }, NOW);
    expect(await liftExpiredSuspensions(db(), mail(), NOW)).toBe(0);
    expect(await suspensionHasEnded(db(), "ida", LATER)).toBe(true);
    expect(await suspensionHasEnded(db(), "hal", LATER)).toBe(false);
    // Sign-in (the session hook) finds ida's end date passed and lifts it there.
    expect(await liftIfExpired(db(), mail(), "ida", LATER)).toBe(false);
    expect(await liftIfExpired(db(), mail(), "hal", LATER)).toBe(true);
    const [first, second] = await Promise.all([liftExpiredSuspensions(db(), mail(), LATER), liftExpiredSuspensions(db(), mail(), LATER)]);
    expect(first + second).toBe(1);
    expect(await liftExpiredSuspensions(db(), mail(), LATER)).toBe(0);
    expect(await disabled("gail")).toBe(false);
    expect(await disabled("ida")).toBe(false);
    expect(await disabled("hal")).toBe(true);
    expect((await auditOf("gail")).at(-1)).toEqual({ action: "account.lift", actor: "scheduled job lift-expired-suspensions", reason: "The suspension's end date passed." });
    expect((await auditOf("ida")).filter((r) => r.action === "account.lift")).toHaveLength(1);
  });

  it("finds accounts by part of the email or name, any case, a page at a time, with % taken literally", async () => {
    for (let n = 0; n < 23; n += 1) await db().insert(user).values({ id: `find-${n}`, name: `Findable ${n}`, email: `find-${String(n).padStart(2, "0")}@look.example` });
    const first = await searchAccounts(db(), { q: "LOOK.example" });
    expect(first.rows).toHaveLength(20);
    const second = await searchAccounts(db(), { q: "look.example", after: first.next });
    expect(second).toMatchObject({ next: null });
    expect(second.rows.map((r) => r.email)).toEqual(["find-20@look.example", "find-21@look.example", "find-22@look.example"]);
    expect((await searchAccounts(db(), { q: "findable 7" })).rows.map((r) => r.id)).toEqual(["find-7"]);
    expect((await searchAccounts(db(), { q: "%" })).rows).toEqual([]);
  });
});
