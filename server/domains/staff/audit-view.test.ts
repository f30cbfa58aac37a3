import { describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { recordAudit, type Actor } from "#server/platform/audit/audit-log";
import { AUDIT_PAGE_SIZE, auditChanges, auditCsv, auditCsvLine, listAudit } from "./audit-view";

const staff: Actor = { kind: "staff", id: "s1", email: "view@staff.example" };

describe("audit rows as people read them", () => {
  it("shows only the fields that changed, before → after", () => {
    expect(auditChanges({ disabled: false, role: "user" }, { disabled: true, role: "user", until: null })).toEqual([
      { field: "disabled", before: "false", after: "true" },
      { field: "until", before: "—", after: "null" },
    ]);
    expect(auditChanges(null, null)).toEqual([]);
    expect(auditChanges("a", "b")).toEqual([{ field: "value", before: '"a"', after: '"b"' }]);
  });

  it("writes CSV cells a spreadsheet cannot run: a leading = + - @ gets a quote, commas and quotes are quoted", () => {
    const line = auditCsvLine({
      id: "00000000-0000-0000-0000-000000000000",
      at: new Date("2026-11-26T10:00:00.000Z"),
      actorId: null,
      actorLabel: "@evil",
      action: "account.suspend",
      subjectType: "user",
      subjectId: "-1+2",
      reason: '=HYPERLINK("http://x","y")',
      before: { a: 1 },
      after: null,
    });
    expect(line).toBe(`2026-11-26T10:00:00.000Z,'@evil,,account.suspend,user,'-1+2,"'=HYPERLINK(""http://x"",""y"")","{""a"":1}",`);
  });
});

describe.each(ENGINES)("the audit log's page and export on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;

  it("pages newest first, filters by action, actor and subject, and exports every matching row", async () => {
    const base = Date.UTC(2026, 10, 1);
    for (let n = 0; n < AUDIT_PAGE_SIZE + 5; n += 1) {
      await recordAudit(db(), { actor: staff, action: "account.suspend", subject: { type: "user", id: `view-${n}` }, reason: `r${n}` }, new Date(base + n * 1000));
    }
    await recordAudit(db(), { actor: { kind: "command-line" }, action: "staff.grant", subject: { type: "user", id: "view-x" } }, new Date(base + 999_000));
    const first = await listAudit(db(), { action: "account.suspend", actor: "VIEW@staff" });
    expect(first.rows).toHaveLength(AUDIT_PAGE_SIZE);
    expect(first.rows[0]!.subjectId).toBe(`view-${AUDIT_PAGE_SIZE + 4}`);
    const second = await listAudit(db(), { action: "account.suspend", actor: "view@staff" }, first.next);
    expect(second.rows.map((r) => r.subjectId)).toEqual(["view-4", "view-3", "view-2", "view-1", "view-0"]);
    expect(second.next).toBeNull();
    expect((await listAudit(db(), { subject: "view-x" })).rows.map((r) => r.actorLabel)).toEqual(["command line"]);
    expect((await listAudit(db(), { actor: "command line", action: "account.suspend" })).rows).toEqual([]);

    // Batches of 7, so the export walks several pages of the log as a large one would.
    const { body, filename } = auditCsv(db(), { actor: "view@staff" }, new Date(), 7);
    expect(filename).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await new Response(body).arrayBuffer());
    const lines = text.trimEnd().split("\r\n");
    expect(lines[0]).toBe("\uFEFFAt (UTC),Actor,Actor id,Action,Subject type,Subject id,Reason,Before,After");
    expect(lines).toHaveLength(1 + AUDIT_PAGE_SIZE + 5);
    expect(lines[1]).toContain(`view-${AUDIT_PAGE_SIZE + 4}`);
    expect(new Set(lines.slice(1).map((line) => line.split(",")[5])).size).toBe(AUDIT_PAGE_SIZE + 5);
  });
});
