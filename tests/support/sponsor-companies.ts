import type { Db } from "#server/platform/db/client";
import { externalSponsors } from "#server/platform/db/schema";
import { checkCompany, COMPANY_COLUMNS, type CompanyColumn, type FlatCompany } from "#server/domains/sponsor-directory/company-fields";
import { rowValues } from "#server/domains/sponsor-directory/curation";

/** A valid company as the staff form sends it (tag "tech" must exist). */
export function companyFlat(name: string, changes: Partial<FlatCompany> = {}): FlatCompany {
  return {
    name,
    website: `https://${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}.example`,
    tags: "tech",
    blurb: `${name} sponsors creators who review gadgets and explain software, with integrated reads and codes.`,
    sponsors: "Tech reviewers and tutorial channels.",
    apply: `Apply through the creator form on ${name}'s own site.`,
    apply_url: "",
    source: `https://press.example/${encodeURIComponent(name)}`,
    website_source: "",
    blurb_source: "",
    tags_source: "",
    sponsors_source: "",
    apply_source: "",
    retired: "",
    ...changes,
  };
}

/** Writes a company directly (as the seed would): no audit row. */
export async function insertCompany(db: Db, id: string, flat: FlatCompany, addedAt = new Date("2026-06-01T12:00:00Z")): Promise<string> {
  const checked = checkCompany(flat, new Set(flat.tags.split(";").map((t) => t.trim())));
  if (!checked.fields) throw new Error(JSON.stringify(checked.errors));
  await db.insert(externalSponsors).values({ id, ...rowValues(checked.fields), inPreviewSample: false, sample: false, addedAt });
  return id;
}

/** A CSV file of these rows, with the header, plain (no formula escaping). */
export function csvOf(rows: Array<Partial<Record<CompanyColumn, string>>>): string {
  const cell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
  return [COMPANY_COLUMNS.join(","), ...rows.map((row) => COMPANY_COLUMNS.map((c) => cell(row[c] ?? "")).join(","))].join("\n") + "\n";
}
