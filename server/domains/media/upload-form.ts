import { PHOTO_FIELD, PHOTO_MAX_BYTES } from "#isomorphic/photo-upload";
import { refusal, success, type Refusal, type Success } from "#server/platform/errors";
import { PHOTO_MESSAGES } from "./process";
import { readFormWithin } from "#page-kit/bounded-form.server";

/** The photo, plus the form's one small field (intent) and multipart's framing. */
export const PHOTO_BODY_LIMIT = PHOTO_MAX_BYTES + 64 * 1024;
const MAX_TEXT_FIELD = 2_000;

export type PhotoForm = Success<{ intent: "upload"; file: Buffer } | { intent: "remove" }>;
type PhotoFormRefusal = Refusal<"invalid-argument" | "unsupported-media-type", "TOO_LARGE" | "MALFORMED">;

const MALFORMED = "We couldn't read this upload: it was incomplete or garbled. Please choose the photo and send it again.";


/**
 * Reads the photo form (multipart, or urlencoded for "Remove photo") as it
 * streams in, counting bytes: past PHOTO_BODY_LIMIT it stops reading and
 * refuses, so a body is never held beyond that whatever Content-Length said.
 * (The app's body cap, server/platform/http/body-limit.ts, holds the same limit below.)
 */
export async function readPhotoForm(request: Request): Promise<PhotoForm | PhotoFormRefusal> {
  const form = await readFormWithin(request, PHOTO_BODY_LIMIT, ["multipart/form-data", "application/x-www-form-urlencoded"]);
  const tooLarge = () => refusal("invalid-argument", "TOO_LARGE", PHOTO_MESSAGES.tooLarge);
  if (form === "too-large") return tooLarge();
  if (form === "wrong-type") return refusal("unsupported-media-type", "MALFORMED", MALFORMED);
  if (form === "malformed") return refusal("invalid-argument", "MALFORMED", MALFORMED);

  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" && value.length <= MAX_TEXT_FIELD && !value.includes("\0") ? value : "";
  };
  if (text("intent") === "remove") return success({ intent: "remove" as const });
  const file = form.get(PHOTO_FIELD);
  // A form sent with no file chosen carries an empty, nameless part: the same as none (processPhoto says so).
  if (!(file instanceof Blob) || file.size === 0) return success({ intent: "upload" as const, file: Buffer.alloc(0) });
  if (file.size > PHOTO_MAX_BYTES) return tooLarge();
  return success({ intent: "upload" as const, file: Buffer.from(await file.arrayBuffer()) });
}
