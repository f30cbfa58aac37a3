import type { PaperworkFile } from "#server/domains/deals/paperwork-files";
import type { PaperworkRefusal } from "#server/domains/deals/paperwork-read";
import { plainTextRefusal, rawAnswer } from "#page-kit/respond.server";

// Only the deal's people may fetch it: never kept by a shared cache, nor by the browser's.
const PRIVATE = { "Cache-Control": "private, no-store" };

/** A paperwork PDF as a download, or the refusal's plain 404 (as every other file download answers). */
export function pdfAnswer(result: PaperworkFile | PaperworkRefusal): Response {
  if (result.kind === "ERROR") return plainTextRefusal(result, PRIVATE);
  return rawAnswer(new Uint8Array(result.pdf), {
    "Content-Type": "application/pdf",
    "Content-Disposition": `attachment; filename="${result.filename}"`,
    ...PRIVATE,
  });
}
