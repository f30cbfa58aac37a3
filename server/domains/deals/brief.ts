import { and, eq, inArray } from "drizzle-orm";
import type { NotificationDeps } from "#server/domains/notifications/send";
import { sendNotification } from "#server/domains/notifications/send";
import type { Semaphore } from "#server/domains/media/semaphore";
import type { Db } from "#server/platform/db/client";
import { dealBriefs, dealFiles, deals } from "#server/platform/db/schema";
import { fieldRefusal, refusal, success, type FieldRefusal, type Refusal, type Success } from "#server/platform/errors";
import { briefIsEditable, MAX_BRIEF_FILES, MAX_BRIEF_TEXT } from "#isomorphic/deal-limits";
import { checkDealFiles, storeDealFiles, type DealFileRefusal, type UploadedFile } from "./files";
import { shownNameOf } from "./notices";

/**
 * The sponsor's brief of a deal: what to make and how, in plain text, with up to MAX_BRIEF_FILES
 * assets (logos, guidelines). One per deal; the sponsor writes it once the terms are agreed and
 * changes it until the deal ends, and the creator is told of each change.
 */

export type BriefRefusal =
  | Refusal<"not-found", "NOT_FOUND">
  | Refusal<"aborted", "WRONG_STATE" | "NOT_YOUR_TURN">
  | FieldRefusal<{ brief?: string }>
  | DealFileRefusal;

const NO_SUCH_DEAL = refusal("not-found", "NOT_FOUND", "There is no such deal.");

export type BriefDeps = { db: Db; notifications: NotificationDeps; processing: Semaphore };

/**
 * Saves the brief's text, removes the assets named in `remove` and adds `files`, all or nothing.
 * Who may is checked before any file is decoded, and again under the deal's row lock.
 */
export async function saveDealBrief(
  { db, notifications, processing }: BriefDeps,
  input: { uid: string; dealId: string; body: string; files: UploadedFile[]; remove: string[] },
  now = new Date(),
): Promise<Success<{ changed: boolean }> | BriefRefusal> {
  const body = input.body.replace(/\r\n/g, "\n").trim();
  if ([...body].length > MAX_BRIEF_TEXT) return fieldRefusal({ brief: `Must be at most ${MAX_BRIEF_TEXT} characters` });
  const [found] = await db.select({ sponsorUid: deals.sponsorUid, creatorUid: deals.creatorUid, state: deals.state }).from(deals).where(eq(deals.id, input.dealId));
  const allowed = whyNot(found, input.uid);
  if (allowed) return allowed;
  const checked = await checkDealFiles(processing, input.files, { max: MAX_BRIEF_FILES });
  if (checked.kind === "ERROR") return checked;

  return db.transaction(async (tx) => {
    const [deal] = await tx.select().from(deals).where(eq(deals.id, input.dealId)).for("update");
    const refused = whyNot(deal, input.uid);
    if (refused || !deal) return refused ?? NO_SUCH_DEAL;
    const [existing] = await tx.select({ body: dealBriefs.body }).from(dealBriefs).where(eq(dealBriefs.dealId, deal.id));
    const assets = await tx.select({ id: dealFiles.id }).from(dealFiles).where(and(eq(dealFiles.dealId, deal.id), eq(dealFiles.place, "brief")));
    const removing = assets.map((asset) => asset.id).filter((id) => input.remove.includes(id));
    if (assets.length - removing.length + checked.files.length > MAX_BRIEF_FILES) {
      return refusal("invalid-argument", "TOO_MANY", `A brief holds at most ${MAX_BRIEF_FILES} files. Remove some before adding more.`);
    }
    if (removing.length > 0) await tx.delete(dealFiles).where(and(eq(dealFiles.dealId, deal.id), eq(dealFiles.place, "brief"), inArray(dealFiles.id, removing)));
    const changed = existing?.body !== body || removing.length > 0 || checked.files.length > 0;
    if (!changed) return success({ changed: false });
    await tx
      .insert(dealBriefs)
      .values({ dealId: deal.id, body, updatedAt: now })
      .onConflictDoUpdate({ target: dealBriefs.dealId, set: { body, updatedAt: now } });
    await storeDealFiles(tx, { dealId: deal.id, uploaderUid: input.uid, place: "brief" }, checked.files, now);
    await tx.update(deals).set({ updatedAt: now }).where(eq(deals.id, deal.id));
    if (deal.creatorUid !== null) {
      const who = await shownNameOf(tx, input.uid);
      await sendNotification(
        tx,
        {
          uid: deal.creatorUid,
          kind: "deal-activity",
          title: existing ? "Brief updated" : "Brief added",
          message: `${who} ${existing ? "updated" : "added"} the brief for “${deal.title}”.`,
          buttonText: "Read the brief",
          buttonDestination: `/app/deals/${deal.id}#brief-heading`,
        },
        notifications,
      );
    }
    return success({ changed: true });
  });
}

function whyNot(deal: { sponsorUid: string | null; creatorUid: string | null; state: string } | undefined, uid: string): BriefRefusal | null {
  if (!deal || (deal.sponsorUid !== uid && deal.creatorUid !== uid)) return NO_SUCH_DEAL;
  if (deal.sponsorUid !== uid) return refusal("aborted", "NOT_YOUR_TURN", "The sponsor writes the brief.");
  if (!briefIsEditable(deal.state)) return refusal("aborted", "WRONG_STATE", "The brief is written once the terms are agreed, and changes until the deal ends.");
  return null;
}
