import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { photos, photoVariants, profiles } from "#server/platform/db/schema";
import { success, type Success } from "#server/platform/errors";
import type { PhotoSize } from "#isomorphic/profile-photo";
import { photoIdOf, processPhoto, type PhotoFormat, type PhotoRefusal } from "./process";
import type { Semaphore } from "./semaphore";

/** What the photo functions need beyond the database: the turn-taking of image work. */
export type PhotoDeps = { db: Db; processing: Semaphore };

/**
 * Makes `file` the person's profile photo, for every page of theirs. The old
 * photo's rows go in the same transaction; a refused file changes nothing.
 * Who it is for comes from the session, never from the form.
 */
export async function setProfilePhoto({ db, processing }: PhotoDeps, uid: string, file: Buffer): Promise<Success<{ photoId: string }> | PhotoRefusal> {
  const processed = await processing.run(() => processPhoto(file));
  if (processed.kind === "ERROR") return processed;
  const photoId = photoIdOf(uid, processed.variants);
  await db.transaction(async (tx) => {
    // One change of a person's photo at a time: two uploads at once end with one photo, not two.
    await tx.execute(sql`select 1 from ${profiles} where ${profiles.uid} = ${uid} for update`);
    await tx.insert(photos).values({ id: photoId, uid }).onConflictDoNothing();
    await tx
      .insert(photoVariants)
      .values(processed.variants.map((variant) => ({ photoId, ...variant })))
      .onConflictDoNothing();
    await tx.insert(profiles).values({ uid, photoId }).onConflictDoUpdate({ target: profiles.uid, set: { photoId, updatedAt: new Date() } });
    await tx.delete(photos).where(and(eq(photos.uid, uid), ne(photos.id, photoId)));
  });
  return success({ photoId });
}

/** Takes the person's photo away (the initial shows again); nothing to remove is a success too. */
export async function removeProfilePhoto(db: Db, uid: string): Promise<Success> {
  await db.transaction(async (tx) => {
    await tx.update(profiles).set({ photoId: null, updatedAt: new Date() }).where(eq(profiles.uid, uid));
    await tx.delete(photos).where(eq(photos.uid, uid));
  });
  return success();
}

/** The person's current photo id, or null. */
export async function profilePhotoOf(db: Db, uid: string): Promise<string | null> {
  const [row] = await db.select({ photoId: profiles.photoId }).from(profiles).where(eq(profiles.uid, uid));
  return row?.photoId ?? null;
}

/** The bytes one media address serves, or null when there is no such photo (any more). */
export async function readPhotoVariant(db: Db, photoId: string, size: PhotoSize, format: PhotoFormat): Promise<Buffer | null> {
  const [row] = await db
    .select({ bytes: photoVariants.bytes })
    .from(photoVariants)
    .where(and(eq(photoVariants.photoId, photoId), eq(photoVariants.size, size), eq(photoVariants.format, format)));
  return row?.bytes ?? null;
}
