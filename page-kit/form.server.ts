/**
 * The one way a route action reads a submitted form.
 *
 * `request.formData()` throws on a JSON body or a broken multipart boundary,
 * silently turns invalid UTF-8 into U+FFFD, and passes NUL bytes on to
 * PostgreSQL, which refuses them in `text` (a 500). This reader accepts only
 * what a browser's form sends, checks it completely before any route code runs,
 * and otherwise answers with a refusal the route shows on its page. Nothing is
 * written for a refused form: the route returns before it calls a domain
 * function.
 */

import { refusal, success, type Refusal, type Success } from "#server/platform/errors";

/** Far above any field's own limit (the longest, a description, is under 1000 characters). */
export const MAX_FIELD_CHARS = 20_000;
/** The largest form (the opportunity editor with 10 tags) has about 25 fields. */
export const MAX_FIELDS = 200;

const URLENCODED = "application/x-www-form-urlencoded";
const MULTIPART = "multipart/form-data";

type FormRefusalReason = "UNSUPPORTED" | "MALFORMED" | "ENCODING" | "NUL" | "TOO_LONG" | "TOO_MANY" | "FILE";

export type FormRefusal = Refusal<
  "invalid-argument" | "unsupported-media-type",
  FormRefusalReason,
  {
    /**
     * What could be read, with NUL characters taken out, when the refusal is
     * about one field's content: a page can put the person's text back into
     * the form rather than lose it.
     */
    salvaged: FormData | null;
  }
>;
export type FormReading = Success<{ form: FormData }> | FormRefusal;

export const FORM_MESSAGES = {
  unsupported: "This address takes a form submission only. Send the form from its page again.",
  malformed: "We couldn't read this form: the submission was incomplete or garbled. Please go back and send it again.",
  encoding: "This form contained bytes that aren't valid text, so nothing was saved. Please check what you pasted and send it again.",
  nul: "A field contained an invisible NUL character that can't be saved, so nothing was saved. We've taken it out: check the form and send it again.",
  tooLong: `A field is longer than ${MAX_FIELD_CHARS.toLocaleString("en-US")} characters, so nothing was saved. Please shorten it and send it again.`,
  tooMany: "This form has more fields than any of our forms, so nothing was saved.",
  file: "This form doesn't take files, so nothing was saved.",
} as const;

const MESSAGE_REASONS: Record<keyof typeof FORM_MESSAGES, FormRefusalReason> = {
  unsupported: "UNSUPPORTED",
  malformed: "MALFORMED",
  encoding: "ENCODING",
  nul: "NUL",
  tooLong: "TOO_LONG",
  tooMany: "TOO_MANY",
  file: "FILE",
};

function refuse(which: keyof typeof FORM_MESSAGES, salvaged: FormData | null = null): FormRefusal {
  const code = which === "unsupported" ? "unsupported-media-type" : "invalid-argument";
  return refusal(code, MESSAGE_REASONS[which], FORM_MESSAGES[which], { salvaged });
}

/** Reads and checks a form submission; never throws for anything the client sent. */
export async function readForm(request: Request): Promise<FormReading> {
  const type = mediaType(request.headers.get("Content-Type"));
  if (type !== URLENCODED && type !== MULTIPART) return refuse("unsupported");

  let bytes: ArrayBuffer;
  try {
    bytes = await request.arrayBuffer();
  } catch {
    return refuse("malformed");
  }
  // Our forms carry text only (no file inputs), so the whole body must be UTF-8.
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return refuse("encoding");
  }

  const entries = type === URLENCODED ? parseUrlEncoded(text) : await parseMultipart(request, bytes);
  if (!Array.isArray(entries)) return entries;
  return checkEntries(entries);
}

/** Checks parsed name/value pairs; exported for the property tests. */
export function checkEntries(entries: Array<[string, string | File]>): FormReading {
  if (entries.length > MAX_FIELDS) return refuse("tooMany");
  const form = new FormData();
  let hasNul = false;
  for (const [name, value] of entries) {
    if (typeof value !== "string") return refuse("file");
    if (name.length > MAX_FIELD_CHARS || value.length > MAX_FIELD_CHARS) return refuse("tooLong");
    if (hasLoneSurrogate(name) || hasLoneSurrogate(value)) return refuse("encoding");
    if (name.includes("\0") || value.includes("\0")) hasNul = true;
    form.append(name.replaceAll("\0", ""), value.replaceAll("\0", ""));
  }
  return hasNul ? refuse("nul", form) : success({ form });
}

function mediaType(header: string | null): string {
  return (header ?? "").split(";")[0]!.trim().toLowerCase();
}

/**
 * application/x-www-form-urlencoded, strictly: URLSearchParams would turn a
 * broken escape or invalid UTF-8 into U+FFFD and save the damage; here it is
 * refused instead.
 */
function parseUrlEncoded(text: string): Array<[string, string]> | FormRefusal {
  const entries: Array<[string, string]> = [];
  if (text === "") return entries;
  for (const pair of text.split("&")) {
    if (pair === "") continue;
    if (entries.length >= MAX_FIELDS) return refuse("tooMany");
    const eq = pair.indexOf("=");
    const rawName = eq === -1 ? pair : pair.slice(0, eq);
    const rawValue = eq === -1 ? "" : pair.slice(eq + 1);
    try {
      entries.push([decodeComponent(rawName), decodeComponent(rawValue)]);
    } catch {
      return refuse("encoding");
    }
  }
  return entries;
}

function decodeComponent(raw: string): string {
  // decodeURIComponent throws on a broken escape and on escaped bytes that aren't UTF-8.
  return decodeURIComponent(raw.replaceAll("+", " "));
}

async function parseMultipart(request: Request, bytes: ArrayBuffer): Promise<Array<[string, string | File]> | FormRefusal> {
  try {
    // The body was consumed above: parse the same bytes with the same headers.
    const copy = new Request("http://form.invalid/", {
      method: "POST",
      headers: { "Content-Type": request.headers.get("Content-Type") ?? "" },
      body: bytes,
    });
    return [...(await copy.formData()).entries()];
  } catch {
    return refuse("malformed");
  }
}

// In a `u` regular expression a surrogate pair is one code point, so this matches lone halves only.
const LONE_SURROGATE = /\p{Cs}/u;
function hasLoneSurrogate(value: string): boolean {
  return LONE_SURROGATE.test(value);
}
