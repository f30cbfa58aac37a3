import { getOwnPage } from "#server/domains/bio/pages";
import { bioPageAddress, qrPng, qrSvg, QR_PNG_SIZE } from "#server/domains/bio/qr";
import type { AppContext } from "#server/main/context";
import { plainTextRefusal } from "#page-kit/respond.server";

export type QrFormat = "svg" | "png";

const CONTENT_TYPES: Record<QrFormat, string> = { svg: "image/svg+xml; charset=utf-8", png: "image/png" };

/** "sponsorgrid-my_page-qr.png": the app's name, then the page's ending (letters, digits and _ only). */
export function qrFileName(appName: string, customEnding: string, format: QrFormat): string {
  const app = appName.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "bio";
  return `${app}-${customEnding}-qr.${format}`;
}

/** The QR code of a page's address as a file to save: the same size in both formats. */
export async function qrFileResponse(address: string, fileName: string, format: QrFormat): Promise<Response> {
  const body = format === "png" ? new Uint8Array(await qrPng(address)) : await qrSvg(address, QR_PNG_SIZE);
  return new Response(body, {
    headers: {
      "Content-Type": CONTENT_TYPES[format],
      "Content-Disposition": `attachment; filename="${fileName}"`,
      // Only the owner may fetch it: never kept by a shared cache.
      "Cache-Control": "private, no-store",
    },
  });
}

/** The owner's QR download; someone else's page, or a missing one, is a plain 404. */
export async function ownQrDownload(context: Pick<AppContext, "db" | "config">, uid: string, pageId: string, format: QrFormat): Promise<Response> {
  const result = await getOwnPage(context.db, { uid }, pageId);
  if (result.kind === "ERROR") return plainTextRefusal(result, { "Cache-Control": "private, no-store" });
  const { customEnding } = result.page;
  return qrFileResponse(bioPageAddress(context.config.BIO_ORIGIN, customEnding), qrFileName(context.config.APP_NAME, customEnding, format), format);
}
