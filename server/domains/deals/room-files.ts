import { eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { dealBriefs } from "#server/platform/db/schema";
import { dealFileRows, fileViewOf, type DealFileUrl, type DealFileView } from "./files";
import type { DealThreadPlace } from "./news";

/** The key of a submission's files: its deliverable and round. */
export const submissionKey = (deliverable: number, round: number) => `${deliverable}-${round}`;

/** What the deal page shows of the deal's files: the brief with its assets, each message's files, each submission's screenshot. */
export type DealRoomFiles = {
  brief: { body: string; updatedAt: string; files: DealFileView[] } | null;
  messages: Record<number, DealFileView[]>;
  submissions: Record<string, DealFileView[]>;
};

/**
 * The deal's brief and files, for the side whose read of the deal made `place` (only a party's read
 * of the deal makes one, as for the thread: server/domains/deals/read.ts).
 */
export async function readDealRoomFiles(db: Db, place: Pick<DealThreadPlace, "dealId">, urlOf?: DealFileUrl): Promise<DealRoomFiles> {
  const [brief] = await db.select().from(dealBriefs).where(eq(dealBriefs.dealId, place.dealId));
  const rows = await dealFileRows(db, place.dealId);
  const room: DealRoomFiles = { brief: null, messages: {}, submissions: {} };
  const briefFiles: DealFileView[] = [];
  for (const row of rows) {
    const view = fileViewOf(place.dealId, row, urlOf);
    if (row.place === "brief") briefFiles.push(view);
    else if (row.place === "message" && row.messageSeq !== null) (room.messages[row.messageSeq] ??= []).push(view);
    else if (row.place === "submission" && row.deliverable !== null && row.round !== null) (room.submissions[submissionKey(row.deliverable, row.round)] ??= []).push(view);
  }
  if (brief || briefFiles.length > 0) room.brief = { body: brief?.body ?? "", updatedAt: (brief?.updatedAt ?? new Date()).toISOString(), files: briefFiles };
  return room;
}
