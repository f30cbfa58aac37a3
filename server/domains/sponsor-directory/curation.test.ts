import fc from "fast-check";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, externalSponsors, logs, tags, user } from "#server/platform/db/schema";
import { createSearchLog } from "#server/platform/search-log/search-log";
import { COMMAND_LINE } from "#server/platform/audit/audit-log";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { companyFlat, csvOf, insertCompany } from "#tests/support/sponsor-companies";
import { upsertSponsorDirectory } from "#server/tools/seed/sponsor-directory";
import { companiesCsv, parseCompaniesCsv, unescapeCell } from "./company-csv";
import { checkCompany } from "./company-fields";
import { applyImport, previewImport } from "./company-import";
import { addCompany, editCompany, getStaffCompany, listStaffCompanies, setCompanyRetired } from "./curation";
import { getSponsorDetail } from "./detail";
import { listRecentSponsors, listSponsorBlurbs } from "./list";
import { logSponsorSearch } from "./search-log";
import { listSearchMisses } from "./search-misses";

const KNOWN = new Set(["tech", "audio", "gaming"]);

describe("checkCompany", () => {
  it("accepts a good company and says what is wrong with a bad one, field by field", () => {
    expect(checkCompany(companyFlat("Good Co"), KNOWN).errors).toBeNull();
    const { errors } = checkCompany(
      companyFlat("", { website: "javascript:alert(1)", blurb: "short", tags: "tech; spaceships", source: "", apply_url: "ftp://x.example", blurb_source: "https://u:p@x.example" }),
      KNOWN,
    );
    expect(errors).toEqual({
      name: "Name is required.",
      website: "Website must start with https:// or http://.",
      blurb: "Blurb must be at least 80 characters (it has 5).",
      tags: "Not a directory tag: “spaceships”.",
      source: "Source is required: the public page that confirms these facts.",
      apply_url: "Apply page must start with https:// or http://.",
      blurb_source: "Source of the blurb must not contain a user name or password.",
    });
    expect(checkCompany(companyFlat("X", { tags: "" }), KNOWN).errors).toEqual({ tags: "Choose 1 to 5 tags." });
    expect(checkCompany(companyFlat("X", { source: "" }), KNOWN, { sample: true }).errors).toBeNull();
    const blurb = "A blurb typed in a browser's textarea,\r\nwhich sends its line breaks as CR LF, long enough to pass.";
    expect(checkCompany(companyFlat("X", { blurb }), KNOWN).fields?.blurb).toBe(blurb.replace("\r\n", "\n"));
  });
});

describe("the CSV file", () => {
  it("escapes cells a spreadsheet would run as formulas, and reads them back as typed", () => {
    const csv = companiesCsv([{ id: "a", sample: false, addedAt: "2026-06-01T12:00:00.000Z", retiredAt: null, flat: companyFlat("=HYPERLINK(1)", { blurb: '@SUM(A1), "quoted"\nnext line' }) }]);
    expect(csv).toContain("'=HYPERLINK(1)");
    expect(csv).toContain(`"'@SUM(A1), ""quoted""\nnext line"`);
    const parsed = parseCompaniesCsv(csv);
    if (parsed.kind === "ERROR") throw new Error(parsed.message);
    expect(parsed.rows[0]!.cells).toMatchObject({ name: "=HYPERLINK(1)", blurb: '@SUM(A1), "quoted"\nnext line', added: "2026-06-01" });
    expect(unescapeCell("'-1")).toBe("-1");
    expect(unescapeCell("'quote")).toBe("'quote");
  });

  it("refuses files that are not the table, saying why", () => {
    const reason = (text: string) => {
      const parsed = parseCompaniesCsv(text);
      return parsed.kind === "ERROR" ? `${parsed.code}:${parsed.reason}` : "ok";
    };
    expect(reason("")).toBe("invalid-argument:CSV_EMPTY");
    expect(reason("name,website\nA,https://a.example\n")).toBe("invalid-argument:CSV_HEADER");
    expect(reason(csvOf([{ name: "A" }]).replace("\n", ',extra\n'))).toBe("invalid-argument:CSV_UNREADABLE");
    expect(reason(`${csvOf([{}]).split("\n")[0]}\n"unterminated`)).toBe("invalid-argument:CSV_UNREADABLE");
    expect(reason(csvOf([{ blurb: "x".repeat(2_001) }]))).toBe("invalid-argument:CSV_CELL_TOO_LONG");
    expect(reason("x".repeat(2_000_001))).toBe("invalid-argument:CSV_TOO_LARGE");
  });

  it("never throws on any input: it parses or refuses (property)", () => {
    const header = csvOf([]).trimEnd();
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.string().map((s) => `${header}\n${s}`)), (text) => {
        const parsed = parseCompaniesCsv(text);
        expect(["SUCCESS", "ERROR"]).toContain(parsed.kind);
        if (parsed.kind === "ERROR") expect(parsed.code).toBe("invalid-argument");
      }),
      { numRuns: 200 },
    );
  });
});

describe.each(ENGINES)("curating the directory (%s)", (engine) => {
  const database = migratedDatabase(engine);
  const seedTags = () => database.db.insert(tags).values([...KNOWN].map((name) => ({ kind: "external_sponsor" as const, name }))).onConflictDoNothing();
  const auditRows = (action: string) => database.db.select().from(auditLog).where(eq(auditLog.action, action));

  it("adds a company dated now, first in Recently Added, with one audit row", async () => {
    await seedTags();
    await insertCompany(database.db, "older_co", companyFlat("Older Co"), new Date("2026-06-01T12:00:00Z"));
    const refused = await addCompany(database.db, COMMAND_LINE, companyFlat("Bad", { website: "http://" }));
    expect(refused).toMatchObject({ kind: "ERROR", code: "invalid-argument", fieldErrors: { website: expect.any(String) } });
    const added = await addCompany(database.db, COMMAND_LINE, companyFlat("Fresh Co", { blurb_source: "https://fresh.example/about" }), new Date("2026-11-26T10:00:00Z"));
    expect(added).toEqual({ kind: "SUCCESS", id: "fresh_co" });
    expect(await addCompany(database.db, COMMAND_LINE, companyFlat("FRESH CO"))).toMatchObject({ fieldErrors: { name: "Another company already has this name." } });
    const recent = await listRecentSponsors(database.db, 1);
    expect(recent.items.map((i) => i.id).slice(0, 2)).toEqual(["fresh_co", "older_co"]);
    expect(recent.items[0]!.addedAt).toBe("2026-11-26T10:00:00.000Z");
    expect(await getSponsorDetail(database.db, "fresh_co")).toMatchObject({ details: { sources: { blurb: "https://fresh.example/about" }, source: "https://press.example/Fresh%20Co" } });
    const [row] = await auditRows("sponsor_company.add");
    expect(row).toMatchObject({ subjectId: "fresh_co", after: expect.objectContaining({ name: "Fresh Co" }) });
  });

  it("edits with before and after, and a restart's seed upsert does not undo it", async () => {
    await seedTags();
    await upsertSponsorDirectory(database.db);
    const [first] = await database.db.select().from(externalSponsors).limit(1);
    const company = (await getStaffCompany(database.db, first!.id))!;
    const edited = await editCompany(database.db, COMMAND_LINE, first!.id, { ...company.flat, name: "Renamed By Staff" });
    expect(edited).toEqual({ kind: "SUCCESS", changed: true });
    expect(await editCompany(database.db, COMMAND_LINE, first!.id, { ...company.flat, name: "Renamed By Staff" })).toEqual({ kind: "SUCCESS", changed: false });
    await upsertSponsorDirectory(database.db);
    expect((await getStaffCompany(database.db, first!.id))!.flat.name).toBe("Renamed By Staff");
    const rows = await auditRows("sponsor_company.edit");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ before: expect.objectContaining({ name: company.flat.name }), after: expect.objectContaining({ name: "Renamed By Staff" }) });
    expect(await editCompany(database.db, COMMAND_LINE, "nobody", company.flat)).toMatchObject({ code: "not-found" });
  });

  it("retires a company out of every Pro read, keeps it for staff, and restores it", async () => {
    await seedTags();
    await insertCompany(database.db, "going_co", companyFlat("Going Co"));
    expect(await setCompanyRetired(database.db, COMMAND_LINE, "going_co", true)).toEqual({ kind: "SUCCESS", changed: true });
    expect(await getSponsorDetail(database.db, "going_co")).toBeNull();
    expect((await listRecentSponsors(database.db, 1)).items.map((i) => i.id)).not.toContain("going_co");
    expect((await listSponsorBlurbs(database.db, { tags: [], terms: ["going"], page: 1 })).items).toEqual([]);
    expect((await getStaffCompany(database.db, "going_co"))!.flat.retired).toBe("yes");
    expect(await setCompanyRetired(database.db, COMMAND_LINE, "going_co", false)).toEqual({ kind: "SUCCESS", changed: true });
    expect(await getSponsorDetail(database.db, "going_co")).not.toBeNull();
    expect((await auditRows("sponsor_company.retire")).map((r) => r.after)).toEqual([{ retired: true }, { retired: false }]);
  });

  it("previews an import (added, changed with diffs, unchanged, errors) and applies it in one go", async () => {
    await seedTags();
    await insertCompany(database.db, "same_co", companyFlat("Same Co"));
    await insertCompany(database.db, "edit_co", companyFlat("Edit Co"));
    const csv = csvOf([
      { ...companyFlat("Same Co"), id: "same_co" },
      { ...companyFlat("Edit Co", { tags: "tech; audio", retired: "yes" }), id: "edit_co" },
      { ...companyFlat("New Co"), id: "" },
      { ...companyFlat("Broken Co", { website: "javascript:x" }), id: "" },
      { ...companyFlat("Ghost Co"), id: "ghost" },
    ]);
    const preview = await previewImport(database.db, csv);
    if (preview.kind === "ERROR") throw new Error(preview.message);
    const { plan } = preview;
    expect(plan.added).toEqual([{ line: 4, id: "new_co", name: "New Co" }]);
    expect(plan.unchanged.map((u) => u.id)).toEqual(["same_co"]);
    expect(plan.changed).toEqual([
      {
        line: 3,
        id: "edit_co",
        name: "Edit Co",
        diffs: [
          { column: "tags", label: "Tags", before: "tech", after: "tech; audio" },
          { column: "retired", label: "Retired", before: "", after: "yes" },
        ],
      },
    ]);
    expect(plan.errors).toEqual([
      { line: 5, label: "Broken Co", messages: ["Website must start with https:// or http://."] },
      { line: 6, label: "Ghost Co", messages: ["No company has the id “ghost”. Leave id empty to add a new company."] },
    ]);
    expect(await applyImport(database.db, COMMAND_LINE, csv, plan.fingerprint)).toMatchObject({ code: "invalid-argument", reason: "IMPORT_HAS_ERRORS" });

    const good = csvOf([
      { ...companyFlat("Edit Co", { tags: "tech; audio", retired: "yes" }), id: "edit_co" },
      { ...companyFlat("New Co"), id: "" },
    ]);
    const goodPreview = await previewImport(database.db, good);
    if (goodPreview.kind === "ERROR") throw new Error(goodPreview.message);
    expect(await applyImport(database.db, COMMAND_LINE, good, "stale")).toMatchObject({ code: "aborted", reason: "IMPORT_STALE" });
    expect(await applyImport(database.db, COMMAND_LINE, good, goodPreview.plan.fingerprint, new Date("2026-11-26T11:00:00Z"))).toEqual({ kind: "SUCCESS", added: 1, changed: 1, unchanged: 0 });
    expect(await getSponsorDetail(database.db, "edit_co")).toBeNull();
    expect((await listRecentSponsors(database.db, 1)).items[0]).toMatchObject({ id: "new_co", addedAt: "2026-11-26T11:00:00.000Z" });
    const audit = await auditRows("sponsor_company.import");
    expect(audit).toHaveLength(1);
    expect(audit[0]!.after).toMatchObject({ added: 1, changed: 1, unchanged: 0, addedIds: ["new_co"], changedIds: ["edit_co"] });
    // Applying the same file again adds nothing twice: "New Co" now exists, so its id-less row is refused.
    expect(await applyImport(database.db, COMMAND_LINE, good, goodPreview.plan.fingerprint)).toMatchObject({ reason: "IMPORT_HAS_ERRORS" });
  });

  it("round-trips: the seeded directory exported and imported again changes nothing", async () => {
    await upsertSponsorDirectory(database.db);
    await addCompany(database.db, COMMAND_LINE, companyFlat("=Formula Co", { tags: "vpn", blurb_source: "https://formula.example/a" }));
    await setCompanyRetired(database.db, COMMAND_LINE, "formula_co", true);
    const csv = companiesCsv(await listStaffCompanies(database.db));
    const preview = await previewImport(database.db, csv);
    if (preview.kind === "ERROR") throw new Error(preview.message);
    expect(preview.plan.errors).toEqual([]);
    expect(preview.plan.added).toEqual([]);
    expect(preview.plan.changed).toEqual([]);
    expect(preview.plan.unchanged.length).toBeGreaterThanOrEqual(150);
  });

  it("reports what Pro members searched for and did not find, most searched first", async () => {
    await database.db.insert(user).values({ id: "pro_searcher", name: "P", email: "p@misses.example", emailVerified: true });
    const searchLog = createSearchLog(database.db);
    logSponsorSearch(searchLog, "pro_searcher", { tags: [], name: "Nowhere" }, 0);
    logSponsorSearch(searchLog, "pro_searcher", { tags: ["audio"], name: "" }, 0);
    logSponsorSearch(searchLog, "pro_searcher", { tags: [], name: "nowhere" }, 0);
    logSponsorSearch(searchLog, "pro_searcher", { tags: [], name: "found" }, 3);
    await searchLog.close();
    await database.db.insert(logs).values({ uid: "pro_searcher", collection: "external_sponsor_misses", description: "search", subtype: "name_ancient", type: "search", created: new Date("2020-01-01T00:00:00Z") });
    const misses = await listSearchMisses(database.db, 30);
    expect(misses.map(({ kind, text, count }) => ({ kind, text, count }))).toEqual([
      { kind: "name", text: "nowhere", count: 2 },
      { kind: "tag", text: "audio", count: 1 },
    ]);
    expect(Date.now() - Date.parse(misses[0]!.lastSearched)).toBeLessThan(60_000);
  });
});
