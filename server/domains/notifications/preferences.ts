import { and, eq, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { notificationPreferences, user } from "#server/platform/db/schema";
import { NOTIFICATION_CATALOGUE, NOTIFICATION_KINDS, type NotificationKind } from "./kinds";

export type MailPreferences = Record<NotificationKind, boolean>;

/** Whether each kind is mailed to this person: their choice where they made one, else the kind's default. */
export async function mailPreferencesOf(db: Pick<Db, "select">, uid: string): Promise<MailPreferences> {
  const rows = await db.select({ kind: notificationPreferences.kind, mail: notificationPreferences.mail }).from(notificationPreferences).where(eq(notificationPreferences.uid, uid));
  const chosen = new Map(rows.map((row) => [row.kind, row.mail]));
  return Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, chosen.get(kind) ?? NOTIFICATION_CATALOGUE[kind].mailByDefault])) as MailPreferences;
}

/** One kind's answer, read with the caller's transaction (sendNotification). */
export async function wantsMail(tx: Pick<Db, "select">, uid: string, kind: NotificationKind): Promise<boolean> {
  const [row] = await tx
    .select({ mail: notificationPreferences.mail })
    .from(notificationPreferences)
    .where(and(eq(notificationPreferences.uid, uid), eq(notificationPreferences.kind, kind)));
  return row?.mail ?? NOTIFICATION_CATALOGUE[kind].mailByDefault;
}

/**
 * Stores the person's choice for every kind (My Account sends them all): a
 * row per kind, even when it equals today's default, because they chose it.
 */
export async function saveMailPreferences(db: Db, uid: string, choices: MailPreferences): Promise<void> {
  await db
    .insert(notificationPreferences)
    .values(NOTIFICATION_KINDS.map((kind) => ({ uid, kind, mail: choices[kind] })))
    .onConflictDoUpdate({
      target: [notificationPreferences.uid, notificationPreferences.kind],
      set: { mail: sql`excluded.mail`, updatedAt: sql`now()` },
    });
}

/** Unsubscribe: this kind's mail off; doing it again changes nothing. False when the account is gone. */
export async function turnMailOff(db: Db, uid: string, kind: NotificationKind): Promise<boolean> {
  const [person] = await db.select({ id: user.id }).from(user).where(eq(user.id, uid));
  if (!person) return false;
  await db
    .insert(notificationPreferences)
    .values({ uid, kind, mail: false })
    .onConflictDoUpdate({ target: [notificationPreferences.uid, notificationPreferences.kind], set: { mail: false, updatedAt: sql`now()` } });
  return true;
}
