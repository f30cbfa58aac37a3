import type { BodyLimitRule } from "#server/platform/http/body-limit";
import { sendRefusal } from "#server/platform/http/refusal";
import { refusal, success, type Refusal, type Success } from "#server/platform/errors";
import { DEAL_UPLOAD_MAX_BYTES, DEAL_UPLOAD_MAX_TEXT, MAX_BRIEF_FILES } from "#isomorphic/deal-limits";
import { readFormWithin } from "#page-kit/bounded-form.server";
import type { UploadedFile } from "./files";

/**
 * The deal page's forms that carry files (a message with attachments, the brief and its assets, a
 * deliverable with its screenshot) are multipart and post to the deal's own address, as its other
 * forms do, so they work without JavaScript and a refusal shows on the deal page. Their body may
 * carry DEAL_UPLOAD_MAX_BYTES of files plus the form's text fields and multipart's framing.
 */
export const DEAL_UPLOAD_BODY_LIMIT = DEAL_UPLOAD_MAX_BYTES + 128 * 1024;

/** `/app/deals/{id}` (and React Router's `.data` form of it), multipart bodies only: every other body keeps the common cap. */
export const DEAL_PAGE_PATH = /^\/app\/deals\/[A-Za-z0-9_-]+(\.data)?$/;

const TOO_LARGE = `Files can come to at most ${DEAL_UPLOAD_MAX_TEXT} in one go. Go back and send fewer or smaller files at a time.`;
const MALFORMED = "We couldn't read this upload: it was incomplete or garbled. Please choose the files and send them again.";

export const dealUploadBodyRule: BodyLimitRule = {
  prefix: DEAL_PAGE_PATH,
  kind: "multipart",
  limit: DEAL_UPLOAD_BODY_LIMIT,
  refuse: (req, res) => sendRefusal(req, res, 413, "Those files are too large", TOO_LARGE),
};

/** Whether a request to the deal page carries a multipart form (the forms with files). */
export function isMultipartForm(request: Request): boolean {
  return (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase() === "multipart/form-data";
}

/** A read upload form: its text fields by name, and the files of a file field (empty choices left out). */
export type DealUploadForm = Success<{ text(name: string): string; texts(name: string): string[]; files(name: string): UploadedFile[] }>;
type DealUploadFormRefusal = Refusal<"invalid-argument" | "unsupported-media-type", "TOO_LARGE" | "MALFORMED" | "TOO_MANY">;

const MAX_TEXT_FIELD = 20_000;
/** More file parts than any form takes is refused before a byte of them is decoded. */
const MAX_PARTS = MAX_BRIEF_FILES + 8;

/**
 * Reads one of the deal page's upload forms as it streams in, counting bytes: past
 * DEAL_UPLOAD_BODY_LIMIT it stops reading and refuses, whatever Content-Length said (the app's
 * body cap, server/platform/http/body-limit.ts, holds the same limit below it).
 */
export async function readDealUploadForm(request: Request): Promise<DealUploadForm | DealUploadFormRefusal> {
  const form = await readFormWithin(request, DEAL_UPLOAD_BODY_LIMIT, ["multipart/form-data"]);
  if (form === "too-large") return refusal("invalid-argument", "TOO_LARGE", TOO_LARGE);
  if (form === "wrong-type") return refusal("unsupported-media-type", "MALFORMED", MALFORMED);
  if (form === "malformed") return refusal("invalid-argument", "MALFORMED", MALFORMED);
  const fileParts = [...form.values()].filter((value) => typeof value !== "string");
  if (fileParts.length > MAX_PARTS) return refusal("invalid-argument", "TOO_MANY", `Attach at most ${MAX_BRIEF_FILES} files at a time.`);
  const clean = (value: FormDataEntryValue) => (typeof value === "string" && value.length <= MAX_TEXT_FIELD && !value.includes("\0") ? value : "");
  const files = new Map<string, UploadedFile[]>();
  for (const [name, value] of form.entries()) {
    // A file field left empty sends one nameless, empty part: the same as no file.
    if (typeof value === "string" || (value.size === 0 && !value.name)) continue;
    const list = files.get(name) ?? [];
    list.push({ name: value.name, bytes: Buffer.from(await value.arrayBuffer()) });
    files.set(name, list);
  }
  return success({
    text: (name: string) => clean(form.get(name) ?? ""),
    texts: (name: string) => form.getAll(name).map(clean).filter(Boolean),
    files: (name: string) => files.get(name) ?? [],
  });
}
