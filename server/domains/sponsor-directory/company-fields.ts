/**
 * One company as staff curate it (back office, /app/admin/sponsors): the flat, all-text shape the
 * edit form and the CSV file share, its checks with a message per field, and the mapping to and
 * from the database row. Pure: no database here.
 */
import { SOURCED_FACTS, type ExternalSponsorDetails, type SourcedFact, type externalSponsors } from "#server/platform/db/schema";

type Row = typeof externalSponsors.$inferSelect;

/** The columns of the CSV file, in order; the form uses the same names. `added` is shown, never imported. */
export const COMPANY_COLUMNS = [
  "id",
  "name",
  "website",
  "tags",
  "blurb",
  "sponsors",
  "apply",
  "apply_url",
  "source",
  ...SOURCED_FACTS.map((fact) => `${fact}_source` as const),
  "retired",
  "added",
] as const;
export type CompanyColumn = (typeof COMPANY_COLUMNS)[number];
/** What an import compares and may change (everything but the id and the date it was added). */
export const EDITABLE_COLUMNS = COMPANY_COLUMNS.filter((c): c is Exclude<CompanyColumn, "id" | "added"> => c !== "id" && c !== "added");
export type EditableColumn = (typeof EDITABLE_COLUMNS)[number];
export type FlatCompany = Record<EditableColumn, string>;

export const COLUMN_LABELS: Record<EditableColumn, string> = {
  name: "Name",
  website: "Website",
  tags: "Tags",
  blurb: "Blurb",
  sponsors: "What they sponsor",
  apply: "How to apply",
  apply_url: "Apply page",
  source: "Source (all facts)",
  website_source: "Source of the website",
  blurb_source: "Source of the blurb",
  tags_source: "Source of the tags",
  sponsors_source: "Source of what they sponsor",
  apply_source: "Source of how to apply",
  retired: "Retired",
};

export const LIMITS = {
  name: { min: 1, max: 80 },
  blurb: { min: 80, max: 420 },
  sponsors: { min: 0, max: 400 },
  apply: { min: 20, max: 400 },
  url: 500,
  tags: { min: 1, max: 5 },
} as const;

/** Tags are written "a; b" in a CSV cell (tag names hold spaces and "&", never ";"). */
export const TAG_SEPARATOR = "; ";

export type CompanyFields = {
  name: string;
  website: string;
  tags: string[];
  blurb: string;
  sponsors: string;
  apply: string;
  applyUrl: string | null;
  source: string | null;
  sources: Partial<Record<SourcedFact, string>>;
  retired: boolean;
};

export type CompanyFieldErrors = Partial<Record<EditableColumn, string>>;

const chars = (value: string) => [...value].length;

function checkUrl(value: string, label: string): string | null {
  if (value.length > LIMITS.url) return `${label} must be at most ${LIMITS.url} characters.`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${label} must be a full web address, starting with https://.`;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return `${label} must start with https:// or http://.`;
  if (url.username || url.password) return `${label} must not contain a user name or password.`;
  return null;
}

function checkText(value: string, label: string, { min, max }: { min: number; max: number }): string | null {
  const n = chars(value);
  if (min > 0 && n === 0) return `${label} is required.`;
  if (n < min) return `${label} must be at least ${min} characters (it has ${n}).`;
  if (n > max) return `${label} must be at most ${max} characters (it has ${n}).`;
  return null;
}

/** Splits a CSV tag cell. */
export function splitTags(cell: string): string[] {
  return cell
    .split(";")
    .map((tag) => tag.trim().toLowerCase())
    .filter(Boolean);
}

/**
 * Checks a company as typed (text trimmed; `retired` is "yes" or empty) against the directory's
 * tag set. A real company needs a public `source`; an invented sample one (seeded) may have none.
 */
export function checkCompany(
  flat: FlatCompany,
  knownTags: ReadonlySet<string>,
  { sample = false }: { sample?: boolean } = {},
): { fields: CompanyFields; errors: null } | { fields: null; errors: CompanyFieldErrors } {
  // Line breaks are stored as \n whatever sent them (a browser's form sends \r\n).
  const value = Object.fromEntries(EDITABLE_COLUMNS.map((c) => [c, (flat[c] ?? "").replace(/\r\n?/g, "\n").trim()])) as FlatCompany;
  const errors: CompanyFieldErrors = {};
  const set = (column: EditableColumn, message: string | null) => {
    if (message) errors[column] = message;
  };
  set("name", checkText(value.name, "Name", LIMITS.name));
  set("blurb", checkText(value.blurb, "Blurb", LIMITS.blurb));
  set("sponsors", checkText(value.sponsors, "What they sponsor", LIMITS.sponsors));
  set("apply", checkText(value.apply, "How to apply", LIMITS.apply));
  set("website", value.website ? checkUrl(value.website, "Website") : "Website is required.");
  if (value.apply_url) set("apply_url", checkUrl(value.apply_url, "Apply page"));
  if (value.source) set("source", checkUrl(value.source, "Source"));
  else if (!sample) set("source", "Source is required: the public page that confirms these facts.");
  for (const fact of SOURCED_FACTS) {
    const column = `${fact}_source` as const;
    if (value[column]) set(column, checkUrl(value[column], COLUMN_LABELS[column]));
  }
  const tags = [...new Set(splitTags(value.tags))];
  const unknown = tags.filter((tag) => !knownTags.has(tag));
  if (unknown.length) set("tags", `Not a directory tag: ${unknown.map((t) => `“${t}”`).join(", ")}.`);
  else if (tags.length < LIMITS.tags.min || tags.length > LIMITS.tags.max) set("tags", `Choose ${LIMITS.tags.min} to ${LIMITS.tags.max} tags.`);
  if (value.retired !== "" && value.retired !== "yes") set("retired", "Retired must be “yes” or empty.");
  if (Object.keys(errors).length) return { fields: null, errors };
  const sources: Partial<Record<SourcedFact, string>> = {};
  for (const fact of SOURCED_FACTS) if (value[`${fact}_source`]) sources[fact] = value[`${fact}_source`];
  return {
    errors: null,
    fields: {
      name: value.name,
      website: value.website,
      tags,
      blurb: value.blurb,
      sponsors: value.sponsors,
      apply: value.apply,
      applyUrl: value.apply_url || null,
      source: value.source || null,
      sources,
      retired: value.retired === "yes",
    },
  };
}

/** The flat form of checked fields (what a row would export as). */
export function flattenFields(fields: CompanyFields): FlatCompany {
  const flat = {
    name: fields.name,
    website: fields.website,
    tags: fields.tags.join(TAG_SEPARATOR),
    blurb: fields.blurb,
    sponsors: fields.sponsors,
    apply: fields.apply,
    apply_url: fields.applyUrl ?? "",
    source: fields.source ?? "",
    retired: fields.retired ? "yes" : "",
  } as FlatCompany;
  for (const fact of SOURCED_FACTS) flat[`${fact}_source`] = fields.sources[fact] ?? "";
  return flat;
}

/** A stored row as staff see and export it. */
export function flattenRow(row: Pick<Row, "name" | "website" | "tags" | "blurb" | "details" | "retiredAt">): FlatCompany {
  return flattenFields({
    name: row.name,
    website: row.website,
    tags: row.tags,
    blurb: row.blurb,
    sponsors: row.details.sponsors,
    apply: row.details.apply,
    applyUrl: row.details.applyUrl,
    source: row.details.source ?? null,
    sources: row.details.sources ?? {},
    retired: row.retiredAt !== null,
  });
}

/** The details document for checked fields, keeping what staff do not edit (formats). */
export function detailsOf(fields: CompanyFields, previous?: ExternalSponsorDetails): ExternalSponsorDetails {
  return {
    sponsors: fields.sponsors,
    formats: previous?.formats ?? [],
    apply: fields.apply,
    applyUrl: fields.applyUrl,
    source: fields.source,
    ...(Object.keys(fields.sources).length ? { sources: fields.sources } : {}),
  };
}

/** The one-sentence teaser non-Pro readers might see: the blurb's start, cut at a word. */
export function teaserOf(blurb: string): string {
  if (chars(blurb) <= 200) return blurb;
  const cut = [...blurb].slice(0, 199).join("");
  return `${cut.slice(0, cut.lastIndexOf(" ") > 30 ? cut.lastIndexOf(" ") : cut.length)}…`;
}

/** A new company's id: a slug of its name; `taken` says which ids exist. */
export function slugFor(name: string, taken: (id: string) => boolean): string {
  const base =
    name
      .normalize("NFKD")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "_")
      .replace(/^_+|_+$/g, "")
      .slice(0, 50) || "company";
  const padded = base.length < 2 ? `${base}_co` : base;
  for (let n = 1; ; n++) {
    const id = n === 1 ? padded : `${padded}_${n}`;
    if (!taken(id)) return id;
  }
}

/** The staff form's fields as a flat company (tags are checkboxes; anything not text is empty). */
export function companyFromForm(form: FormData): FlatCompany {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const flat = Object.fromEntries(EDITABLE_COLUMNS.map((c) => [c, text(c)])) as FlatCompany;
  flat.tags = form
    .getAll("tags")
    .filter((v): v is string => typeof v === "string")
    .join(TAG_SEPARATOR);
  return flat;
}
