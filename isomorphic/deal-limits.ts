/** What one deal's texts and lists may hold: the server's checks and the forms' hints share them. */
export const MAX_DELIVERABLES = 10;
export const MAX_DEAL_TEXT = 2000;
export const MAX_DEAL_LINKS = 3;
export const MAX_MESSAGE_TEXT = 4000;

/** Where each way into a deal lives: a brief is applied to, a request is answered with an offer. */
export function openDealPath(opportunityId: string, kind: "brief" | "request"): string {
  return `/app/opportunities/${opportunityId}/${kind === "brief" ? "apply" : "offer"}`;
}

/** How many times a sponsor may send one deliverable back for changes before they can only approve it. */
export const MAX_CHANGE_ROUNDS = 2;

/**
 * Files in the deal room: images (re-encoded by the server, server/domains/media/process.ts) and
 * PDFs (checked, never rendered). The forms' hints and the server's checks share these numbers.
 */
export const DEAL_FILE_MAX_BYTES = 10 * 1024 * 1024;
export const DEAL_FILE_MAX_TEXT = "10 MB";
export const MAX_MESSAGE_FILES = 4;
export const MAX_BRIEF_FILES = 8;
/**
 * What one form may carry in files altogether: four of the largest. The body is read into memory,
 * so a brief's eight assets of the largest size go in two saves rather than one 80 MB request.
 */
export const DEAL_UPLOAD_MAX_BYTES = MAX_MESSAGE_FILES * DEAL_FILE_MAX_BYTES;
export const DEAL_UPLOAD_MAX_TEXT = "40 MB";
export const MAX_BRIEF_TEXT = 5000;
/** The file pickers' filter; the server looks at the bytes, never at this. */
export const DEAL_FILE_ACCEPT = "image/jpeg,image/png,image/webp,application/pdf,.jpg,.jpeg,.png,.webp,.pdf";
export const DEAL_IMAGE_ACCEPT = "image/jpeg,image/png,image/webp,.jpg,.jpeg,.png,.webp";
export const DEAL_FILE_TYPES_TEXT = "JPEG, PNG, WebP or PDF";
export const DEAL_IMAGE_TYPES_TEXT = "JPEG, PNG or WebP";

/** Where a deal's file is served, to the deal's two sides only; `thumb` asks an image's small copy. */
export function dealFileUrl(dealId: string, fileId: string, variant: "full" | "thumb" = "full"): string {
  return `/app/deals/${encodeURIComponent(dealId)}/files/${fileId}${variant === "thumb" ? "?size=thumb" : ""}`;
}

/** The same file under the back office, for staff deciding a dispute. */
export function staffDealFileUrl(dealId: string, fileId: string, variant: "full" | "thumb" = "full"): string {
  return `/app/admin/deals/${encodeURIComponent(dealId)}/files/${fileId}${variant === "thumb" ? "?size=thumb" : ""}`;
}

/** "1.4 MB", "820 KB": a file's size as a chip shows it. */
export function fileSizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, "")} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** The sponsor writes the brief once the terms are agreed and changes it until the deal ends: while agreed or booked. */
export function briefIsEditable(state: string): boolean {
  return state === "agreed" || state === "funded";
}
