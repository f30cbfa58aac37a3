import type { Db } from "#server/platform/db/client";
import { success, type Success } from "#server/platform/errors";
import { invoicePdf, statementPdf } from "./paperwork-pdf";
import { readDealInvoice, readDealStatement, type PaperworkRefusal } from "./paperwork-read";

/** A deal's paperwork as a file to save: the same readers' rules as the pages, then the PDF. */
export type PaperworkFile = Success<{ pdf: Buffer; filename: string }>;

export async function dealInvoiceFile(db: Db, input: { uid: string; dealId: string; appName: string }): Promise<PaperworkFile | PaperworkRefusal> {
  const read = await readDealInvoice(db, input);
  if (read.kind === "ERROR") return read;
  return success({ pdf: await invoicePdf(read.document), filename: read.document.filename });
}

export async function dealStatementFile(db: Db, input: { uid: string; dealId: string }): Promise<PaperworkFile | PaperworkRefusal> {
  const read = await readDealStatement(db, input);
  if (read.kind === "ERROR") return read;
  return success({ pdf: await statementPdf(read.document), filename: read.document.filename });
}
