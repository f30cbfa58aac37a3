import crypto from "node:crypto";
import sharp from "sharp";
import { and, eq, or } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { dealFiles, deals, type DealFileKind, type DealFilePlace } from "#server/platform/db/schema";
import { refusal, success, type Refusal, type Success } from "#server/platform/errors";
import { decodeImage, type ImageChecks } from "#server/domains/media/process";
import type { ImageKind } from "#server/domains/media/sniff";
import type { Semaphore } from "#server/domains/media/semaphore";
import { DEAL_FILE_MAX_BYTES, DEAL_FILE_MAX_TEXT, DEAL_FILE_TYPES_TEXT, DEAL_IMAGE_TYPES_TEXT, DEAL_UPLOAD_MAX_BYTES, DEAL_UPLOAD_MAX_TEXT, dealFileUrl } from "#isomorphic/deal-limits";

/**
 * The deal room's files: images (JPEG, PNG, WebP) pass the same gate as profile photos
 * (server/domains/media/process.ts decodeImage) and only the server's re-encoding is kept; PDFs are
 * checked by their signature and their end marker and kept as sent, never rendered by us.
 */

/** A file as a form sent it: the name it claimed and its bytes. */
export type UploadedFile = { name: string; bytes: Buffer };

/** A file that passed its checks, ready to store. */
export type CheckedFile = { kind: DealFileKind; contentType: string; name: string; bytes: Buffer; thumb: Buffer | null; width: number | null; height: number | null };

export type DealFileRefusalReason = "EMPTY" | "TOO_LARGE" | "NOT_AN_IMAGE" | "TOO_MANY_PIXELS" | "BROKEN" | "NOT_ALLOWED" | "TOO_MANY";
const FILE_REASONS: ReadonlySet<string> = new Set<DealFileRefusalReason>(["EMPTY", "TOO_LARGE", "NOT_AN_IMAGE", "TOO_MANY_PIXELS", "BROKEN", "NOT_ALLOWED", "TOO_MANY"]);
/** Whether a move was refused for one of its files (the form shows it by the file field). */
export function isFileRefusal(refused: { reason?: string }): boolean {
  return refused.reason !== undefined && FILE_REASONS.has(refused.reason);
}
export type DealFileRefusal = Refusal<"invalid-argument" | "unsupported-media-type" | "unprocessable-content", DealFileRefusalReason>;

const IMAGE_MESSAGES: ImageChecks["messages"] = {
  empty: "That file is empty. Choose it again.",
  tooLarge: `That file is larger than ${DEAL_FILE_MAX_TEXT}. Send a smaller copy of it.`,
  svg: `SVG drawings can't be shared here (they can carry scripts). Send ${DEAL_FILE_TYPES_TEXT} files.`,
  gif: `GIFs can't be shared here. Send ${DEAL_FILE_TYPES_TEXT} files.`,
  notImage: `That file isn't one we take. Send ${DEAL_FILE_TYPES_TEXT} files of up to ${DEAL_FILE_MAX_TEXT} each.`,
  heic: "HEIC photos can't be shared here. On your phone, share or export it as JPEG (most phones offer “Most compatible”), then send that.",
  tooManyPixels: "That image is too large in pixels (more than 48 megapixels). Send a smaller copy of it.",
  broken: "That image looks damaged or cut short, so it can't be used. Send it again, or choose another one.",
};

const IMAGE_CHECKS: ImageChecks = { accepted: new Set<ImageKind>(["jpeg", "png", "webp"]), maxBytes: DEAL_FILE_MAX_BYTES, messages: IMAGE_MESSAGES };

const PDF_BROKEN = "That PDF looks damaged or cut short (it has no end), so it can't be shared. Save or export it again and send that.";
const SCREENSHOT_ONLY = `A screenshot is one image: send it as ${DEAL_IMAGE_TYPES_TEXT}.`;

/** What the server keeps of an image: at most this wide and tall (a long page screenshot stays readable). */
const MAX_WIDTH = 2560;
const MAX_HEIGHT = 8192;
/** The thread's and the brief's small copy: a thumbnail a phone shows sharp at 2×. */
const THUMB_PX = 480;

const ENCODED: Record<"jpeg" | "png" | "webp", { contentType: string; extension: string }> = {
  jpeg: { contentType: "image/jpeg", extension: "jpg" },
  png: { contentType: "image/png", extension: "png" },
  webp: { contentType: "image/webp", extension: "webp" },
};

/**
 * A name fit to show and to offer for download: the last part of any path, no control or
 * formatting characters, no quotes or slashes, at most 100 characters, ending in the extension
 * of what the file really is.
 */
export function cleanFileName(claimed: string, extension: string): string {
  const base = claimed.split(/[\\/]/).pop() ?? "";
  const stem = base
    .normalize("NFC")
    .replace(/[\p{Cc}\p{Cf}"*:<>?|]/gu, "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/\.[A-Za-z0-9]{1,5}$/, "")
    .replace(/^\.+/, "");
  return `${[...(stem || "file")].slice(0, 100).join("")}.${extension}`;
}

/** A PDF by its own bytes: the signature at the start and the end marker within its last kilobyte. */
function checkPdf(file: UploadedFile): Success<{ file: CheckedFile }> | DealFileRefusal {
  const tail = file.bytes.subarray(Math.max(0, file.bytes.length - 1024)).toString("latin1");
  if (!tail.includes("%%EOF")) return refusal("unprocessable-content", "BROKEN", PDF_BROKEN);
  return success({ file: { kind: "pdf", contentType: "application/pdf", name: cleanFileName(file.name, "pdf"), bytes: file.bytes, thumb: null, width: null, height: null } });
}

async function checkImage(processing: Semaphore, file: UploadedFile): Promise<Success<{ file: CheckedFile }> | DealFileRefusal> {
  const decoded = await processing.run(() =>
    decodeImage(file.bytes, IMAGE_CHECKS, async (source, kind) => {
      const format = kind as keyof typeof ENCODED;
      const fitted = source.rotate().resize(MAX_WIDTH, MAX_HEIGHT, { fit: "inside", withoutEnlargement: true }).toColourspace("srgb");
      const encoded = format === "jpeg" ? fitted.jpeg({ quality: 85, mozjpeg: true }) : format === "png" ? fitted.png({ compressionLevel: 9 }) : fitted.webp({ quality: 85 });
      const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
      const thumb = await sharp(data).resize(THUMB_PX, THUMB_PX, { fit: "inside", withoutEnlargement: true }).webp({ quality: 75 }).toBuffer();
      return { data, thumb, width: info.width, height: info.height, format };
    }),
  );
  if (decoded.kind === "ERROR") return decoded;
  const { data, thumb, width, height, format } = decoded.value;
  // Re-encoding can grow an already squeezed file; what is kept keeps to the same cap.
  if (data.length > DEAL_FILE_MAX_BYTES) return refusal("invalid-argument", "TOO_LARGE", IMAGE_MESSAGES.tooLarge);
  const { contentType, extension } = ENCODED[format];
  return success({ file: { kind: "image", contentType, name: cleanFileName(file.name, extension), bytes: data, thumb, width, height } });
}

/** The refusal with the file's name before it, as sent but cleaned for showing. */
function named<R extends DealFileRefusal>(claimed: string, refused: R): R {
  const shown = [...(claimed.split(/[\\/]/).pop() ?? "").replace(/[\p{Cc}\p{Cf}]/gu, "").trim()].slice(0, 100).join("");
  return shown ? { ...refused, message: `“${shown}”: ${refused.message}` } : refused;
}

/**
 * Checks every file of one form, in order: at most `max` of them and DEAL_UPLOAD_MAX_BYTES together;
 * `imagesOnly` for a screenshot. The first refused file refuses them all (nothing of the form is
 * stored), named in the message so the person knows which one to change.
 */
export async function checkDealFiles(processing: Semaphore, files: UploadedFile[], { max, imagesOnly = false }: { max: number; imagesOnly?: boolean }): Promise<Success<{ files: CheckedFile[] }> | DealFileRefusal> {
  if (files.length > max) return refusal("invalid-argument", "TOO_MANY", max === 1 ? "Attach one file only." : `Attach at most ${max} files at a time.`);
  if (files.reduce((sum, file) => sum + file.bytes.length, 0) > DEAL_UPLOAD_MAX_BYTES) {
    return refusal("invalid-argument", "TOO_LARGE", `These files come to more than ${DEAL_UPLOAD_MAX_TEXT} together. Send some of them in another message.`);
  }
  const checked: CheckedFile[] = [];
  for (const file of files) {
    if (file.bytes.length === 0) return named(file.name, refusal("invalid-argument", "EMPTY", IMAGE_MESSAGES.empty));
    if (file.bytes.length > DEAL_FILE_MAX_BYTES) return named(file.name, refusal("invalid-argument", "TOO_LARGE", IMAGE_MESSAGES.tooLarge));
    const isPdf = file.bytes.subarray(0, 5).toString("latin1") === "%PDF-";
    if (isPdf && imagesOnly) return named(file.name, refusal("unsupported-media-type", "NOT_ALLOWED", SCREENSHOT_ONLY));
    const result = isPdf ? checkPdf(file) : await checkImage(processing, file);
    if (result.kind === "ERROR") return named(file.name, imagesOnly && result.reason === "NOT_AN_IMAGE" ? { ...result, message: SCREENSHOT_ONLY } : result);
    checked.push(result.file);
  }
  return success({ files: checked });
}

/** Where stored files belong: the deal and one of its message, brief or submission. */
export type DealFileOwner = { dealId: string; uploaderUid: string } & (
  | { place: "message"; messageSeq: number }
  | { place: "brief" }
  | { place: "submission"; deliverable: number; round: number }
);

/** Stores checked files in the caller's transaction, under ids nobody can guess. */
export async function storeDealFiles(tx: Db, owner: DealFileOwner, files: CheckedFile[], now = new Date()): Promise<void> {
  if (files.length === 0) return;
  await tx.insert(dealFiles).values(
    files.map((file, i) => ({
      id: crypto.randomBytes(16).toString("hex"),
      dealId: owner.dealId,
      place: owner.place,
      messageSeq: owner.place === "message" ? owner.messageSeq : null,
      deliverable: owner.place === "submission" ? owner.deliverable : null,
      round: owner.place === "submission" ? owner.round : null,
      uploaderUid: owner.uploaderUid,
      kind: file.kind,
      contentType: file.contentType,
      name: file.name,
      size: file.bytes.length,
      width: file.width,
      height: file.height,
      bytes: file.bytes,
      thumb: file.thumb,
      // A millisecond apart: the files list in the order they were chosen.
      createdAt: new Date(now.getTime() + i),
    })),
  );
}

/** A file as a page lists it: never its bytes, which only the file's address serves. */
export type DealFileView = { id: string; kind: DealFileKind; name: string; size: number; width: number | null; height: number | null; url: string; thumbUrl: string | null };

export type DealFileRow = { id: string; place: DealFilePlace; messageSeq: number | null; deliverable: number | null; round: number | null; kind: DealFileKind; name: string; size: number; width: number | null; height: number | null };

/** Every file of a deal, without bytes, oldest first. */
export async function dealFileRows(db: Db, dealId: string): Promise<DealFileRow[]> {
  return db
    .select({
      id: dealFiles.id,
      place: dealFiles.place,
      messageSeq: dealFiles.messageSeq,
      deliverable: dealFiles.deliverable,
      round: dealFiles.round,
      kind: dealFiles.kind,
      name: dealFiles.name,
      size: dealFiles.size,
      width: dealFiles.width,
      height: dealFiles.height,
    })
    .from(dealFiles)
    .where(eq(dealFiles.dealId, dealId))
    .orderBy(dealFiles.createdAt, dealFiles.id);
}

/** Where a file is served: the deal's own address for its sides, the back office's for staff. */
export type DealFileUrl = (dealId: string, fileId: string, size?: "thumb") => string;

export function fileViewOf(dealId: string, row: DealFileRow, urlOf: DealFileUrl = dealFileUrl): DealFileView {
  const url = urlOf(dealId, row.id);
  return { id: row.id, kind: row.kind, name: row.name, size: row.size, width: row.width, height: row.height, url, thumbUrl: row.kind === "image" ? urlOf(dealId, row.id, "thumb") : null };
}

/** A file's bytes as served: what they are, under which name. */
export type ServedDealFile = { kind: DealFileKind; contentType: string; name: string; bytes: Buffer };

const NO_SUCH_FILE = refusal("not-found", "NOT_FOUND", "There is no such file.");

/**
 * One file of a deal, for one of the deal's two sides (or staff) only; anyone else (or a file of
 * another deal under this deal's address) gets the same not-found as a file that never was.
 */
export async function readDealFile(
  db: Db,
  input: { reader: { uid: string } | "staff"; dealId: string; fileId: string; variant: "full" | "thumb" },
): Promise<Success<{ file: ServedDealFile }> | Refusal<"not-found", "NOT_FOUND">> {
  if (!/^[0-9a-f]{32}$/.test(input.fileId)) return NO_SUCH_FILE;
  // Staff (signed in with two factors, server/domains/auth/staff-guard.ts) read every deal's files, as they read its thread, to decide a dispute.
  const reader = input.reader === "staff" ? undefined : or(eq(deals.creatorUid, input.reader.uid), eq(deals.sponsorUid, input.reader.uid));
  const [row] = await db
    .select({ kind: dealFiles.kind, contentType: dealFiles.contentType, name: dealFiles.name, bytes: input.variant === "thumb" ? dealFiles.thumb : dealFiles.bytes })
    .from(dealFiles)
    .innerJoin(deals, eq(deals.id, dealFiles.dealId))
    .where(and(eq(dealFiles.id, input.fileId), eq(dealFiles.dealId, input.dealId), reader));
  if (!row?.bytes) return NO_SUCH_FILE;
  const thumb = input.variant === "thumb";
  return success({ file: { kind: row.kind, contentType: thumb ? "image/webp" : row.contentType, name: thumb ? row.name.replace(/\.[a-z]+$/, ".webp") : row.name, bytes: row.bytes } });
}

/**
 * The headers a deal's file is served with, beside those the app host's guards give every answer
 * (server/platform/http/security.ts: X-Content-Type-Options nosniff, Cross-Origin-Resource-Policy
 * same-origin, which are not repeated here: a second copy of the latter would void it): its type,
 * nothing inside it run if it is opened on its own, kept by no cache but the person's own. Images
 * show in place as the type we re-encoded them to; PDFs only download, under their cleaned name.
 */
export function dealFileHeaders(file: Pick<ServedDealFile, "kind" | "contentType" | "name" | "bytes">): Record<string, string> {
  const ascii = file.name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  const disposition = `${file.kind === "pdf" ? "attachment" : "inline"}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.name)}`;
  return {
    "Content-Type": file.contentType,
    "Content-Length": String(file.bytes.length),
    "Content-Disposition": disposition,
    "Content-Security-Policy": "default-src 'none'; sandbox",
    "Cache-Control": "private, no-store",
  };
}
