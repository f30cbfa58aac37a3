/**
 * The directory as a CSV file (back office export and import). Export neutralises formulas
 * (isomorphic/csv.ts `safeText`); import undoes exactly that, so an exported file
 * imported again changes nothing. The parser is strict and bounded: a file that is not this
 * table is refused with a message that says where and why.
 */
import { parse } from "csv-parse/sync";
import { csvLine, safeText } from "#isomorphic/csv";
import { refusal, success, type Refusal, type Success } from "#server/platform/errors";
import { COMPANY_COLUMNS, type CompanyColumn } from "./company-fields";
import type { Db } from "#server/platform/db/client";
import { listStaffCompanies, type StaffCompany } from "./curation";

/** A directory of thousands of companies is well under this. */
export const MAX_IMPORT_BYTES = 2_000_000;
export const MAX_IMPORT_ROWS = 5_000;
/** Longer than any field's own limit, so the field check says what is wrong; beyond it, refused. */
export const MAX_CELL_CHARS = 2_000;

const BOM = "\uFEFF";

export function companiesCsv(companies: readonly StaffCompany[]): string {
  const lines = companies.map((company) =>
    csvLine(COMPANY_COLUMNS.map((column) => safeText(column === "id" ? company.id : column === "added" ? company.addedAt.slice(0, 10) : company.flat[column]))),
  );
  return BOM + [csvLine(COMPANY_COLUMNS), ...lines].join("\r\n") + "\r\n";
}

/** The whole directory as a file, named by today's date. */
export async function exportCompaniesCsv(db: Db, now = new Date()): Promise<Success<{ csv: string; filename: string; rows: number }>> {
  const companies = await listStaffCompanies(db);
  return success({ csv: companiesCsv(companies), filename: `sponsor-directory-${now.toISOString().slice(0, 10)}.csv`, rows: companies.length });
}

/** Undoes `safeText`: the ' it puts before a leading = + - @ (or tab / CR). */
export function unescapeCell(cell: string): string {
  return /^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}

export type CsvRow = { line: number; cells: Record<CompanyColumn, string> };
type CsvRefusal = Refusal<"invalid-argument", "CSV_TOO_LARGE" | "CSV_UNREADABLE" | "CSV_HEADER" | "CSV_TOO_MANY_ROWS" | "CSV_CELL_TOO_LONG" | "CSV_EMPTY">;

/** Parses an uploaded file into rows keyed by column, or refuses it as a whole. */
export function parseCompaniesCsv(text: string): Success<{ rows: CsvRow[] }> | CsvRefusal {
  if (new TextEncoder().encode(text).length > MAX_IMPORT_BYTES) {
    return refusal("invalid-argument", "CSV_TOO_LARGE", `The file is larger than ${MAX_IMPORT_BYTES / 1_000_000} MB. Split it and import the parts.`);
  }
  let records: string[][];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: false, max_record_size: MAX_CELL_CHARS * COMPANY_COLUMNS.length, to: MAX_IMPORT_ROWS + 2 });
  } catch (error) {
    const detail = error instanceof Error ? error.message.slice(0, 300) : "unknown error";
    return refusal("invalid-argument", "CSV_UNREADABLE", `This file is not a CSV table we can read: ${detail}`);
  }
  const [header, ...body] = records;
  if (!header || body.length === 0) return refusal("invalid-argument", "CSV_EMPTY", "The file has no companies: it needs a header line and at least one row.");
  const names = header.map((cell) => cell.trim().toLowerCase());
  const missing = COMPANY_COLUMNS.filter((column) => !names.includes(column));
  const extra = names.filter((name) => !(COMPANY_COLUMNS as readonly string[]).includes(name));
  if (missing.length || extra.length || new Set(names).size !== names.length) {
    const parts = [missing.length ? `missing ${missing.join(", ")}` : "", extra.length ? `unknown ${extra.slice(0, 5).map((n) => `“${n.slice(0, 40)}”`).join(", ")}` : ""].filter(Boolean);
    return refusal("invalid-argument", "CSV_HEADER", `The first line must name the columns ${COMPANY_COLUMNS.join(", ")} once each (${parts.join("; ") || "a column is repeated"}). Export the list to get a file of the right shape.`);
  }
  if (body.length > MAX_IMPORT_ROWS) return refusal("invalid-argument", "CSV_TOO_MANY_ROWS", `The file has more than ${MAX_IMPORT_ROWS} rows. Split it and import the parts.`);
  const rows: CsvRow[] = [];
  for (const [index, record] of body.entries()) {
    const cells = {} as Record<CompanyColumn, string>;
    for (const [at, name] of names.entries()) {
      const cell = record[at] ?? "";
      if ([...cell].length > MAX_CELL_CHARS) {
        return refusal("invalid-argument", "CSV_CELL_TOO_LONG", `Row ${index + 2}, column ${name}: a cell is longer than ${MAX_CELL_CHARS} characters.`);
      }
      cells[name as CompanyColumn] = unescapeCell(cell);
    }
    rows.push({ line: index + 2, cells });
  }
  return success({ rows });
}
