/**
 * Reads the back office's CSV import form (multipart): the uploaded file (`file`) on "Preview",
 * or the previewed text sent back (`csv`, hidden) with its `fingerprint` on "Apply". page-kit's
 * readForm takes no files and caps fields far below a directory file, so this reader counts the
 * bytes as they stream in and stops past IMPORT_BODY_LIMIT, as the photo form does.
 */
import type { BodyLimitRule } from "#server/platform/http/body-limit";
import { sendRefusal } from "#server/platform/http/refusal";
import { refusal, success, type Refusal, type Success } from "#server/platform/errors";
import { MAX_IMPORT_BYTES } from "./company-csv";
import { readFormWithin } from "#page-kit/bounded-form.server";

export const IMPORT_PATH = "/app/admin/sponsors/import";
/** The file plus the form's small fields and multipart's framing. */
export const IMPORT_BODY_LIMIT = MAX_IMPORT_BYTES + 64 * 1024;
const MAX_SMALL_FIELD = 200;

const TOO_LARGE = `The file is larger than ${MAX_IMPORT_BYTES / 1_000_000} MB. Split it and import the parts.`;
const MALFORMED = "We couldn't read this upload: it was incomplete or garbled. Choose the file and send it again.";
const NOT_TEXT = "This file is not UTF-8 text (is it a spreadsheet rather than a CSV export?). Save it as CSV UTF-8 and try again.";
const NO_FILE = "Choose a CSV file to preview.";

export const importBodyRule: BodyLimitRule = {
  prefix: IMPORT_PATH,
  limit: IMPORT_BODY_LIMIT,
  refuse: (req, res) => sendRefusal(req, res, 413, "That file is too large", TOO_LARGE),
};

export type ImportForm = Success<{ intent: "preview" | "apply"; csv: string; fingerprint: string }>;
type ImportFormRefusal = Refusal<"invalid-argument" | "unsupported-media-type", "TOO_LARGE" | "MALFORMED" | "NOT_TEXT" | "NO_FILE">;

export async function readImportForm(request: Request): Promise<ImportForm | ImportFormRefusal> {
  const form = await readFormWithin(request, IMPORT_BODY_LIMIT, ["multipart/form-data"]);
  const tooLarge = () => refusal("invalid-argument", "TOO_LARGE", TOO_LARGE);
  if (form === "too-large") return tooLarge();
  if (form === "wrong-type") return refusal("unsupported-media-type", "MALFORMED", MALFORMED);
  if (form === "malformed") return refusal("invalid-argument", "MALFORMED", MALFORMED);
  const small = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" && value.length <= MAX_SMALL_FIELD ? value : "";
  };
  const intent = small("intent") === "apply" ? "apply" : "preview";
  let bytes: ArrayBuffer;
  if (intent === "apply") {
    const csv = form.get("csv");
    if (typeof csv !== "string") return refusal("invalid-argument", "NO_FILE", NO_FILE);
    bytes = new TextEncoder().encode(csv).buffer as ArrayBuffer;
  } else {
    const file = form.get("file");
    if (!(file instanceof Blob) || file.size === 0) return refusal("invalid-argument", "NO_FILE", NO_FILE);
    if (file.size > MAX_IMPORT_BYTES) return tooLarge();
    bytes = await file.arrayBuffer();
  }
  let csv: string;
  try {
    csv = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return refusal("invalid-argument", "NOT_TEXT", NOT_TEXT);
  }
  // PostgreSQL text cannot hold NUL, and no CSV export has one: a binary file, refused as such.
  if (csv.includes("\0")) return refusal("invalid-argument", "NOT_TEXT", NOT_TEXT);
  // A form field comes back with \r\n for every line break: one form for both steps, so the
  // previewed file and the applied one are the same text (and plan the same fingerprint).
  return success({ intent, csv: csv.replace(/\r\n?/g, "\n"), fingerprint: small("fingerprint") });
}
