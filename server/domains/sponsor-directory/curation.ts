/**
 * Staff curate the directory (/app/admin/sponsors): add, edit, retire and restore companies.
 * Every change writes one audit row in its own transaction, and marks the row staff-edited so the
 * start-up seed upsert (server/tools/seed/sponsor-directory.ts) never undoes it.
 */
import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { externalSponsors } from "#server/platform/db/schema";
import { fieldRefusal, refusal, success, type FieldRefusal, type Refusal, type Success } from "#server/platform/errors";
import { recordAudit, type Actor } from "#server/platform/audit/audit-log";
import { namePrefixes, nameWords } from "./names";
import { listSponsorTags } from "./tags";
import {
  checkCompany,
  detailsOf,
  flattenFields,
  flattenRow,
  slugFor,
  teaserOf,
  type CompanyFieldErrors,
  type CompanyFields,
  type FlatCompany,
} from "./company-fields";

export type StaffCompany = { id: string; sample: boolean; addedAt: string; retiredAt: string | null; flat: FlatCompany };

type Row = typeof externalSponsors.$inferSelect;

function toStaffCompany(row: Row): StaffCompany {
  return { id: row.id, sample: row.sample, addedAt: row.addedAt.toISOString(), retiredAt: row.retiredAt?.toISOString() ?? null, flat: flattenRow(row) };
}

/** Every company, retired ones too, by name: the back office's list and the CSV export. */
export async function listStaffCompanies(db: Db): Promise<StaffCompany[]> {
  const rows = await db.select().from(externalSponsors).orderBy(asc(externalSponsors.name), asc(externalSponsors.id));
  return rows.map(toStaffCompany);
}

export async function getStaffCompany(db: Db, id: string): Promise<StaffCompany | null> {
  const [row] = await db.select().from(externalSponsors).where(eq(externalSponsors.id, id.slice(0, 100)));
  return row ? toStaffCompany(row) : null;
}

/** The columns a checked company writes; `added`/`retired` times are the caller's. */
export function rowValues(fields: CompanyFields, previous?: Row["details"]) {
  const words = nameWords(fields.name);
  return {
    name: fields.name,
    nameArray: words,
    namePrefixes: namePrefixes(words),
    tags: fields.tags,
    blurb: fields.blurb,
    preview: teaserOf(fields.blurb),
    website: fields.website,
    details: detailsOf(fields, previous),
  };
}

async function nameTaken(db: Db, name: string, exceptId: string | null): Promise<boolean> {
  const [row] = await db
    .select({ id: externalSponsors.id })
    .from(externalSponsors)
    .where(sql`lower(${externalSponsors.name}) = ${name.toLowerCase()} and ${externalSponsors.id} <> ${exceptId ?? ""}`)
    .limit(1);
  return row !== undefined;
}

type Invalid = FieldRefusal<CompanyFieldErrors>;
type NotFound = Refusal<"not-found", "NO_COMPANY">;
const noCompany = (): NotFound => refusal("not-found", "NO_COMPANY", "There is no company with that id.");
const DUPLICATE_NAME = "Another company already has this name.";

/** Adds a company (never retired at birth), dated now: it leads Recently Added. */
export async function addCompany(db: Db, actor: Actor, flat: FlatCompany, now = new Date()): Promise<Success<{ id: string }> | Invalid> {
  const checked = checkCompany({ ...flat, retired: "" }, new Set(await listSponsorTags(db)));
  if (checked.errors) return fieldRefusal(checked.errors);
  const { fields } = checked;
  return db.transaction(async (tx) => {
    if (await nameTaken(tx, fields.name, null)) return fieldRefusal<CompanyFieldErrors>({ name: DUPLICATE_NAME });
    const existing = new Set((await tx.select({ id: externalSponsors.id }).from(externalSponsors)).map((r) => r.id));
    const id = slugFor(fields.name, (candidate) => existing.has(candidate));
    await tx.insert(externalSponsors).values({ id, ...rowValues(fields), inPreviewSample: false, sample: false, addedAt: now, staffEditedAt: now });
    await recordAudit(tx, { actor, action: "sponsor_company.add", subject: { type: "sponsor_company", id }, after: flattenFields(fields) }, now);
    return success({ id });
  });
}

/** Edits a company's facts and sources (retiring is its own action). Nothing changed: no write, no audit row. */
export async function editCompany(
  db: Db,
  actor: Actor,
  id: string,
  flat: FlatCompany,
  now = new Date(),
): Promise<Success<{ changed: boolean }> | Invalid | NotFound> {
  const tags = new Set(await listSponsorTags(db));
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(externalSponsors).where(eq(externalSponsors.id, id.slice(0, 100))).for("update");
    if (!row) return noCompany();
    const before = flattenRow(row);
    const checked = checkCompany({ ...flat, retired: before.retired }, tags, { sample: row.sample });
    if (checked.errors) return fieldRefusal(checked.errors);
    if (await nameTaken(tx, checked.fields.name, id)) return fieldRefusal<CompanyFieldErrors>({ name: DUPLICATE_NAME });
    const after = flattenFields(checked.fields);
    if (JSON.stringify(after) === JSON.stringify(before)) return success({ changed: false });
    await tx.update(externalSponsors).set({ ...rowValues(checked.fields, row.details), staffEditedAt: now }).where(eq(externalSponsors.id, row.id));
    await recordAudit(tx, { actor, action: "sponsor_company.edit", subject: { type: "sponsor_company", id: row.id }, before, after }, now);
    return success({ changed: true });
  });
}

/** Retires (hidden from every directory read, kept here) or restores a company. */
export async function setCompanyRetired(
  db: Db,
  actor: Actor,
  id: string,
  retired: boolean,
  now = new Date(),
): Promise<Success<{ changed: boolean }> | NotFound> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(externalSponsors).where(eq(externalSponsors.id, id.slice(0, 100))).for("update");
    if (!row) return noCompany();
    if ((row.retiredAt !== null) === retired) return success({ changed: false });
    await tx.update(externalSponsors).set({ retiredAt: retired ? now : null, staffEditedAt: now }).where(eq(externalSponsors.id, row.id));
    await recordAudit(
      tx,
      {
        actor,
        action: "sponsor_company.retire",
        subject: { type: "sponsor_company", id: row.id },
        reason: retired ? "retired" : "restored",
        before: { retired: row.retiredAt !== null },
        after: { retired },
      },
      now,
    );
    return success({ changed: true });
  });
}
