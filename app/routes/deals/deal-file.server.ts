import type { Db } from "#server/platform/db/client";
import { dealFileHeaders, readDealFile } from "#server/domains/deals/files";
import { rawAnswer, refuseWith } from "#page-kit/respond.server";

/**
 * One file of a deal as the browser gets it: the bytes with their safe headers, or (for anyone
 * but the deal's two sides, or no such file) the product's not-found, thrown as the page's refusal.
 */
export async function dealFileAnswer(db: Db, input: { reader: { uid: string } | "staff"; dealId: string; fileId: string; url: string }): Promise<Response> {
  const variant = new URL(input.url).searchParams.get("size") === "thumb" ? "thumb" : "full";
  const read = await readDealFile(db, { reader: input.reader, dealId: input.dealId, fileId: input.fileId, variant });
  if (read.kind === "ERROR") refuseWith(read);
  return rawAnswer(new Uint8Array(read.file.bytes), dealFileHeaders(read.file));
}
