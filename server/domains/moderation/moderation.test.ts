import { and, eq } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { REPORT_RATE_LIMITS } from "#server/platform/abuse/rules";
import type { Db } from "#server/platform/db/client";
import { auditLog, bioPages, contentReports, emailOutbox, notifications, opportunityPosts, user } from "#server/platform/db/schema";
import { readPublicPage } from "#server/domains/bio/public-page";
import { listOpportunities } from "#server/domains/opportunities/list";
import { getOpportunity } from "#server/domains/opportunities/read";
import type { Actor } from "#server/platform/audit/audit-log";
import { REPORT_NOTE_MAX, REPORT_REASONS } from "#isomorphic/report-reasons";
import { notificationDeps } from "#tests/support/payments";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { listReportQueue, reportedItem, resolveReports } from "./queue";
import { submitReport, type Reporter } from "./report";
import { listRemoved, removeContent, restoreContent } from "./takedown";
import { parseItemAddress } from "./targets";

const STAFF: Actor = { kind: "staff", id: "staff-1", email: "staff@test.example" };
const guest = (ip: string): Reporter => ({ ip, account: null });

async function owner(db: Db, id: string) {
  await db.insert(user).values({ id, name: id, email: `${id}@owner.example`, emailVerified: true });
}

async function page(db: Db, id: string) {
  await owner(db, `owner-${id}`);
  await db.insert(bioPages).values({ id, uid: `owner-${id}`, customEnding: id, name: `Page ${id}` });
  return id;
}

async function post(db: Db, n: number) {
  const id = `${String(1000000000 + n)}_post${n}`;
  await owner(db, `poster-${n}`);
  await db.insert(opportunityPosts).values({ id, title: `Post ${n}`, description: "A post.", posterUid: `poster-${n}`, posterName: "Poster" });
  return id;
}

const report = (ending: string, extra: Partial<{ reason: string; note: string; email: string }> = {}) => ({ type: "bio_page" as const, address: ending, reason: "Scams", note: "", email: "", ...extra });

describe.each(ENGINES)("reports and take-downs on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;

  it("counts a repeat report of an open item once, and thanks both the same way", async () => {
    await page(db(), "dedupe_me");
    const first = await submitReport(db(), report("dedupe_me"), guest("203.0.113.5"));
    const again = await submitReport(db(), report("dedupe_me", { reason: "Spam" }), guest("203.0.113.5"));
    const other = await submitReport(db(), report("dedupe_me"), guest("198.51.100.7"));
    expect([first.kind, again.kind, other.kind]).toEqual(["SUCCESS", "SUCCESS", "SUCCESS"]);
    expect(first.kind === "SUCCESS" && first.counted).toBe(true);
    expect(again.kind === "SUCCESS" && again.counted).toBe(false);
    const [row] = (await listReportQueue(db(), "open")).filter((r) => r.item.address === "dedupe_me");
    expect(row?.reports).toBe(2);
  });

  it("refuses a bad reason, a note over the limit and a malformed email with field errors", async () => {
    await page(db(), "fields_page");
    const result = await submitReport(db(), report("fields_page", { reason: "Because", note: "x".repeat(REPORT_NOTE_MAX + 1), email: "not an email" }), guest("203.0.113.9"));
    expect(result.kind === "ERROR" && "fieldErrors" in result ? Object.keys(result.fieldErrors).sort() : []).toEqual(["email", "note", "reason"]);
    expect(await db().select().from(contentReports).where(eq(contentReports.targetId, "fields_page"))).toEqual([]);
  });

  it("limits new reports per network", async () => {
    const limit = REPORT_RATE_LIMITS.network.limit;
    for (let i = 0; i < limit; i++) await page(db(), `flood_${i}`);
    await page(db(), "flood_last");
    for (let i = 0; i < limit; i++) expect((await submitReport(db(), report(`flood_${i}`), guest("192.0.2.44"))).kind).toBe("SUCCESS");
    const refused = await submitReport(db(), report("flood_last"), guest("192.0.2.44"));
    expect(refused.kind === "ERROR" ? refused.code : null).toBe("resource-exhausted");
    expect((await submitReport(db(), report("flood_last"), guest("192.0.2.45"))).kind).toBe("SUCCESS");
  });

  it("keeps a signed-in reporter's account address, whatever they typed", async () => {
    await page(db(), "signed_in_page");
    await owner(db(), "reporter-1");
    await submitReport(db(), report("signed_in_page", { email: "typed@else.example" }), { ip: "203.0.113.80", account: { id: "reporter-1", email: "reporter-1@owner.example" } });
    const [row] = await db().select().from(contentReports).where(eq(contentReports.targetId, "signed_in_page"));
    expect(row?.reporterEmail).toBe("reporter-1@owner.example");
    expect(row?.reporterUid).toBe("reporter-1");
  });

  it("takes a reported page down: unavailable, owner notified, reporters mailed, audited; restore brings it back", async () => {
    await page(db(), "takedown_page");
    await submitReport(db(), report("takedown_page", { email: "first@reporter.example", note: "Asks for fees" }), guest("203.0.113.20"));
    await submitReport(db(), report("takedown_page", { reason: "Impersonation", email: "second@reporter.example" }), guest("203.0.113.21"));
    await submitReport(db(), report("takedown_page"), guest("203.0.113.22"));
    const deps = notificationDeps(db());
    const resolved = await resolveReports(db(), deps, STAFF, { type: "bio_page", id: "takedown_page" }, "remove", "Asks creators for upfront fees.");
    expect(resolved.kind === "SUCCESS" ? [resolved.reports, resolved.mailed] : null).toEqual([3, 2]);
    expect((await readPublicPage(db(), "takedown_page"))?.ownerActive).toBe(false);
    const [note] = await db().select().from(notifications).where(and(eq(notifications.uid, "owner-takedown_page"), eq(notifications.kind, "content-removed")));
    expect(note?.message).toContain("Asks creators for upfront fees.");
    expect(note?.message).toContain("support@test.example");
    const mailed = (await db().select().from(emailOutbox)).map((m) => m.to);
    expect(mailed).toEqual(expect.arrayContaining(["first@reporter.example", "second@reporter.example", "owner-takedown_page@owner.example"]));
    const audits = await db().select().from(auditLog).where(eq(auditLog.subjectId, "takedown_page"));
    expect(audits.map((a) => a.action).sort()).toEqual(["bio_page.remove", "report.outcome"]);
    expect((await listReportQueue(db(), "actioned")).some((r) => r.item.id === "takedown_page")).toBe(true);
    expect((await reportedItem(db(), "bio_page", "takedown_page"))?.reports.map((r) => r.status)).toEqual(["actioned", "actioned", "actioned"]);
    expect((await listRemoved(db())).map((r) => r.id)).toContain("takedown_page");
    // Deciding twice finds nothing open.
    const twice = await resolveReports(db(), deps, STAFF, { type: "bio_page", id: "takedown_page" }, "dismiss", "Again");
    expect(twice.kind === "ERROR" ? twice.code : null).toBe("aborted");

    expect((await restoreContent(db(), deps, STAFF, { type: "bio_page", id: "takedown_page" }, "")).kind).toBe("ERROR");
    expect((await restoreContent(db(), deps, STAFF, { type: "bio_page", id: "takedown_page" }, "Appeal upheld")).kind).toBe("SUCCESS");
    expect((await readPublicPage(db(), "takedown_page"))?.ownerActive).toBe(true);
    const [restored] = await db().select().from(notifications).where(and(eq(notifications.uid, "owner-takedown_page"), eq(notifications.kind, "content-restored")));
    expect(restored?.title).toContain("restored");
  });

  it("hides a removed opportunity from lists and detail for everyone but its poster, who sees the reason", async () => {
    const id = await post(db(), 1);
    const deps = notificationDeps(db());
    expect((await removeContent(db(), deps, STAFF, { type: "opportunity", id }, "Spam post")).kind).toBe("SUCCESS");
    expect(await getOpportunity(db(), id, null)).toBeNull();
    expect(await getOpportunity(db(), id, "someone-else")).toBeNull();
    expect((await getOpportunity(db(), id, "poster-1"))?.removedReason).toBe("Spam post");
    const list = await listOpportunities(db(), { tags: [], after: null, before: null, page: 1 }, null);
    expect(list.kind === "SUCCESS" ? list.items.map((item) => item.id) : ["failed"]).not.toContain(id);
    // A report of something already taken down is not taken.
    const late = await submitReport(db(), { type: "opportunity", address: id, reason: "Spam", note: "", email: "" }, guest("203.0.113.30"));
    expect(late.kind === "ERROR" ? late.code : null).toBe("not-found");
  });

  it("dismisses reports: the item stays up, reporters are told", async () => {
    const id = await post(db(), 2);
    await submitReport(db(), { type: "opportunity", address: id, reason: "Misleading offers", note: "", email: "dismissed@reporter.example" }, guest("203.0.113.40"));
    const resolved = await resolveReports(db(), notificationDeps(db()), STAFF, { type: "opportunity", id }, "dismiss", "Within the rules.");
    expect(resolved.kind === "SUCCESS" ? resolved.status : null).toBe("dismissed");
    expect(await getOpportunity(db(), id, null)).not.toBeNull();
    const [mail] = await db().select().from(emailOutbox).where(eq(emailOutbox.to, "dismissed@reporter.example"));
    expect(mail?.text).toContain("does not break our rules");
  });

  it("keeps any note as plain bounded text, whatever it holds (property)", async () => {
    await page(db(), "hostile_page");
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: REPORT_NOTE_MAX + 200, unit: "binary" }), fc.constantFrom(...REPORT_REASONS, "", "<script>"), async (note, reason) => {
        n += 1;
        const result = await submitReport(db(), report("hostile_page", { note, reason }), guest(`10.9.${Math.floor(n / 250)}.${n % 250}`));
        if (result.kind === "ERROR") expect(result.code).toBe("invalid-argument");
        else expect(result.counted).toBe(true);
      }),
      { numRuns: 40 },
    );
    const kept = await db().select({ note: contentReports.note, reason: contentReports.reason }).from(contentReports).where(eq(contentReports.targetId, "hostile_page"));
    expect(kept.length).toBeGreaterThan(0);
    for (const row of kept) {
      expect(row.note.length).toBeLessThanOrEqual(REPORT_NOTE_MAX);
      // eslint-disable-next-line no-control-regex -- the control characters are what must not be kept
      expect(row.note).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/);
      expect(REPORT_REASONS as readonly string[]).toContain(row.reason);
    }
  });

  it("reads an item's address as staff paste it", () => {
    expect(parseItemAddress("https://bio.test/Maya_1", "https://bio.test")).toEqual({ type: "bio_page", address: "maya_1" });
    expect(parseItemAddress("maya", "https://bio.test")).toEqual({ type: "bio_page", address: "maya" });
    expect(parseItemAddress("http://app.test/app/opportunities/8236281600_Xq3", "https://bio.test")).toEqual({ type: "opportunity", address: "8236281600_Xq3" });
    expect(parseItemAddress("https://evil.test/maya", "https://bio.test")).toBeNull();
    expect(parseItemAddress("", "https://bio.test")).toBeNull();
  });
});
