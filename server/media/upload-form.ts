import { PHOTO_FIELD, PHOTO_MAX_BYTES } from "#isomorphic/photo-upload";
import { refusal, success, type Refusal, type Success } from "#server/errors";
import { PHOTO_MESSAGES } from "./process";

/** The photo, plus the form's one small field (intent) and multipart's framing. */
export const PHOTO_BODY_LIMIT = PHOTO_MAX_BYTES + 64 * 1024;
const MAX_TEXT_FIELD = 2_000;

export type PhotoForm = Success<{ intent: "upload"; file: Buffer } | { intent: "remove" }>;
type PhotoFormRefusal = Refusal<"invalid-argument" | "unsupported-media-type", "TOO_LARGE" | "MALFORMED">;

const MALFORMED = "We couldn't read this upload: it was incomplete or garbled. Please choose the photo and send it again.";

class TooLarge extends Error {}

/**
 * Reads the photo form (multipart, or urlencoded for "Remove photo") as it
 * streams in, counting bytes: past PHOTO_BODY_LIMIT it stops reading and
 * refuses, so a body is never held beyond that whatever Content-Length said.
 * (The app's body cap, server/http/body-limit.ts, holds the same limit below.)
 */
export async function readPhotoForm(request: Request): Promise<PhotoForm | PhotoFormRefusal> {
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "multipart/form-data" && type !== "application/x-www-form-urlencoded") {
    return refusal("unsupported-media-type", "MALFORMED", MALFORMED);
  }
  const tooLarge = () => refusal("invalid-argument", "TOO_LARGE", PHOTO_MESSAGES.tooLarge);
  if (Number(request.headers.get("Content-Length") ?? 0) > PHOTO_BODY_LIMIT) return tooLarge();
  if (!request.body) return refusal("invalid-argument", "MALFORMED", MALFORMED);

  let received = 0;
  const counted = request.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        received += chunk.byteLength;
        if (received > PHOTO_BODY_LIMIT) controller.error(new TooLarge());
        else controller.enqueue(chunk);
      },
    }),
  );
  let form: FormData;
  try {
    form = await new Response(counted, { headers: { "Content-Type": request.headers.get("Content-Type")! } }).formData();
  } catch {
    return received > PHOTO_BODY_LIMIT ? tooLarge() : refusal("invalid-argument", "MALFORMED", MALFORMED);
  }

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
