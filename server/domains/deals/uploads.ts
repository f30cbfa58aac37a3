import { eq } from "drizzle-orm";
import type { NotificationDeps } from "#server/domains/notifications/send";
import type { Semaphore } from "#server/domains/media/semaphore";
import type { Db } from "#server/platform/db/client";
import { deals } from "#server/platform/db/schema";
import { refusal, success, type Refusal, type Success } from "#server/platform/errors";
import { MAX_MESSAGE_FILES } from "#isomorphic/deal-limits";
import { checkDealFiles, type DealFileRefusal, type UploadedFile } from "./files";
import { postDealMessage } from "./thread";
import { submitDeliverable, type WorkRefusal } from "./work";
import type { SubmissionState } from "#server/platform/db/schema";

/**
 * The deal room's moves that carry files: a message with attachments, a deliverable handed in with
 * a screenshot. Whether the person is on the deal is asked before any file is decoded (a stranger
 * costs no image work), the files are checked, then the move stores them in its own transaction.
 */

export type UploadDeps = { db: Db; notifications: NotificationDeps; processing: Semaphore };

const NO_SUCH_DEAL = refusal("not-found", "NOT_FOUND", "There is no such deal.");

async function isParty(db: Db, uid: string, dealId: string): Promise<boolean> {
  const [deal] = await db.select({ creatorUid: deals.creatorUid, sponsorUid: deals.sponsorUid }).from(deals).where(eq(deals.id, dealId));
  return deal !== undefined && (deal.creatorUid === uid || deal.sponsorUid === uid);
}

/** A message into the thread with up to MAX_MESSAGE_FILES files; a refused file sends nothing. */
export async function postDealMessageWithFiles(
  { db, notifications, processing }: UploadDeps,
  input: { uid: string; dealId: string; body: string; files: UploadedFile[] },
  now = new Date(),
): Promise<Awaited<ReturnType<typeof postDealMessage>> | DealFileRefusal> {
  if (!(await isParty(db, input.uid, input.dealId))) return NO_SUCH_DEAL;
  const checked = await checkDealFiles(processing, input.files, { max: MAX_MESSAGE_FILES });
  if (checked.kind === "ERROR") return checked;
  return postDealMessage(db, notifications, { uid: input.uid, dealId: input.dealId, body: input.body, files: checked.files }, now);
}

/** A deliverable handed in with an optional screenshot (one image) for the sponsor's review. */
export async function submitDeliverableWithScreenshot(
  { db, notifications, processing }: UploadDeps,
  input: { uid: string; dealId: string; deliverable: number; liveUrl: string; note: string; screenshot: UploadedFile | null },
  now = new Date(),
): Promise<Success<{ round: number; state: SubmissionState }> | WorkRefusal | DealFileRefusal | Refusal<"not-found", "NOT_FOUND">> {
  if (!(await isParty(db, input.uid, input.dealId))) return NO_SUCH_DEAL;
  const checked = input.screenshot ? await checkDealFiles(processing, [input.screenshot], { max: 1, imagesOnly: true }) : success({ files: [] });
  if (checked.kind === "ERROR") return checked;
  const { screenshot: _raw, ...rest } = input;
  return submitDeliverable(db, notifications, { ...rest, screenshot: checked.files[0] ?? null }, now);
}
