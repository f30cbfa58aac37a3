/**
 * Importing the directory from CSV: first a plan (what would be added, changed field by field,
 * left alone, and which rows are wrong and why), shown to staff; then, on their word, the same
 * plan applied in one transaction with one audit row. The plan carries a fingerprint: if the
 * directory changed between preview and apply, the apply is refused rather than doing something
 * nobody saw.
 */
import { createHash } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { externalSponsors } from "#server/platform/db/schema";
import { refusal, success, type Refusal, type Success } from "#server/platform/errors";
import { recordAudit, type Actor } from "#server/platform/audit/audit-log";
import { checkCompany, COLUMN_LABELS, EDITABLE_COLUMNS, flattenFields, slugFor, type CompanyFields, type EditableColumn, type FlatCompany } from "./company-fields";
import { parseCompaniesCsv } from "./company-csv";
import { listStaffCompanies, rowValues } from "./curation";
import { listSponsorTags } from "./tags";

export type FieldDiff = { column: EditableColumn; label: string; before: string; after: string };
export type ImportPlan = {
  added: { line: number; id: string; name: string }[];
  changed: { line: number; id: string; name: string; diffs: FieldDiff[] }[];
  unchanged: { line: number; id: string; name: string }[];
  errors: { line: number; label: string; messages: string[] }[];
  fingerprint: string;
};

type Planned = { plan: ImportPlan; writes: { id: string; fields: CompanyFields; isNew: boolean }[] };
type ImportRefusal = Refusal<"invalid-argument" | "aborted", string>;

async function planFor(db: Db, text: string): Promise<Success<Planned> | ImportRefusal> {
  const parsed = parseCompaniesCsv(text);
  if (parsed.kind === "ERROR") return parsed;
  const tags = new Set(await listSponsorTags(db));
  const companies = await listStaffCompanies(db);
  const byId = new Map(companies.map((c) => [c.id, c]));
  const plan: ImportPlan = { added: [], changed: [], unchanged: [], errors: [], fingerprint: "" };
  const writes: Planned["writes"] = [];
  const seenIds = new Set<string>();
  // Names must stay unique: companies the file does not mention keep theirs.
  const nameOwner = new Map(companies.map((c) => [c.flat.name.toLowerCase(), c.id]));
  const newIds = new Set<string>();
  for (const { line, cells } of parsed.rows) {
    const id = cells.id.trim();
    const label = cells.name.trim().slice(0, 80) || id.slice(0, 60) || `row ${line}`;
    const existing = id ? byId.get(id) : undefined;
    const messages: string[] = [];
    if (id && !existing) messages.push(`No company has the id “${id.slice(0, 60)}”. Leave id empty to add a new company.`);
    if (id && seenIds.has(id)) messages.push("This id appears on an earlier row too.");
    if (id) seenIds.add(id);
    const flat = Object.fromEntries(EDITABLE_COLUMNS.map((c) => [c, cells[c]])) as FlatCompany;
    const checked = checkCompany(flat, tags, { sample: existing?.sample ?? false });
    if (checked.errors) messages.push(...Object.values(checked.errors));
    if (checked.fields) {
      const key = checked.fields.name.toLowerCase();
      const owner = nameOwner.get(key);
      if (owner !== undefined && owner !== (existing?.id ?? null)) messages.push(`Another company (${owner}) already has the name “${checked.fields.name}”.`);
    }
    if (messages.length || !checked.fields) {
      plan.errors.push({ line, label, messages });
      continue;
    }
    const fields = checked.fields;
    if (existing && nameOwner.get(existing.flat.name.toLowerCase()) === existing.id) nameOwner.delete(existing.flat.name.toLowerCase());
    if (!existing) {
      const newId = slugFor(fields.name, (candidate) => byId.has(candidate) || newIds.has(candidate));
      newIds.add(newId);
      nameOwner.set(fields.name.toLowerCase(), newId);
      plan.added.push({ line, id: newId, name: fields.name });
      writes.push({ id: newId, fields, isNew: true });
      continue;
    }
    nameOwner.set(fields.name.toLowerCase(), existing.id);
    // Compared as it would be stored (trimmed, tags normalised), so a re-import of an export is unchanged.
    const afterFlat = flattenFields(fields);
    const diffs = EDITABLE_COLUMNS.filter((c) => afterFlat[c] !== existing.flat[c]).map((column) => ({
      column,
      label: COLUMN_LABELS[column],
      before: existing.flat[column],
      after: afterFlat[column],
    }));
    if (diffs.length === 0) plan.unchanged.push({ line, id: existing.id, name: fields.name });
    else {
      plan.changed.push({ line, id: existing.id, name: fields.name, diffs });
      writes.push({ id: existing.id, fields, isNew: false });
    }
  }
  plan.fingerprint = createHash("sha256")
    .update(JSON.stringify([plan.added, plan.changed, plan.errors.length]))
    .digest("hex")
    .slice(0, 32);
  return success({ plan, writes });
}

/** What importing `text` would do. Writes nothing. */
export async function previewImport(db: Db, text: string): Promise<Success<{ plan: ImportPlan }> | ImportRefusal> {
  const planned = await planFor(db, text);
  return planned.kind === "ERROR" ? planned : success({ plan: planned.plan });
}

/**
 * Applies the file, all or nothing, if it still plans what the preview showed (`fingerprint`)
 * and has no row in error. New companies are dated `now`; all written rows become staff-edited.
 */
export async function applyImport(
  db: Db,
  actor: Actor,
  text: string,
  fingerprint: string,
  now = new Date(),
): Promise<Success<{ added: number; changed: number; unchanged: number }> | ImportRefusal> {
  return db.transaction(async (tx) => {
    const planned = await planFor(tx, text);
    if (planned.kind === "ERROR") return planned;
    const { plan, writes } = planned;
    if (plan.errors.length) return refusal("invalid-argument", "IMPORT_HAS_ERRORS", `${plan.errors.length} row(s) have errors. Fix them and preview again; nothing was imported.`);
    if (plan.fingerprint !== fingerprint) {
      return refusal("aborted", "IMPORT_STALE", "The directory changed since this preview (or the file did). Nothing was imported: preview the file again.");
    }
    const previous = writes.some((w) => !w.isNew)
      ? await tx.select({ id: externalSponsors.id, details: externalSponsors.details }).from(externalSponsors).where(inArray(externalSponsors.id, writes.filter((w) => !w.isNew).map((w) => w.id)))
      : [];
    const detailsById = new Map(previous.map((row) => [row.id, row.details]));
    for (const write of writes) {
      const retiredAt = write.fields.retired ? now : null;
      if (write.isNew) {
        await tx.insert(externalSponsors).values({ id: write.id, ...rowValues(write.fields), inPreviewSample: false, sample: false, addedAt: now, staffEditedAt: now, retiredAt });
      } else {
        const [current] = await tx.select({ retiredAt: externalSponsors.retiredAt }).from(externalSponsors).where(eq(externalSponsors.id, write.id));
        await tx
          .update(externalSponsors)
          .set({ ...rowValues(write.fields, detailsById.get(write.id)), staffEditedAt: now, retiredAt: write.fields.retired ? (current?.retiredAt ?? now) : null })
          .where(eq(externalSponsors.id, write.id));
      }
    }
    const counts = { added: plan.added.length, changed: plan.changed.length, unchanged: plan.unchanged.length };
    await recordAudit(
      tx,
      {
        actor,
        action: "sponsor_company.import",
        subject: { type: "sponsor_directory", id: "external_sponsors" },
        after: { ...counts, addedIds: plan.added.map((a) => a.id), changedIds: plan.changed.map((c) => c.id) },
      },
      now,
    );
    return success(counts);
  });
}

/** The import form's one entry: preview the file, or apply what was previewed. */
export async function importCompanies(
  db: Db,
  actor: Actor,
  form: { intent: "preview" | "apply"; csv: string; fingerprint: string },
): Promise<(Success<{ step: "preview"; plan: ImportPlan }> | Success<{ step: "applied"; added: number; changed: number; unchanged: number }>) | ImportRefusal> {
  if (form.intent === "preview") {
    const preview = await previewImport(db, form.csv);
    return preview.kind === "ERROR" ? preview : success({ step: "preview" as const, plan: preview.plan });
  }
  const applied = await applyImport(db, actor, form.csv, form.fingerprint);
  return applied.kind === "ERROR" ? applied : success({ step: "applied" as const, added: applied.added, changed: applied.changed, unchanged: applied.unchanged });
}
