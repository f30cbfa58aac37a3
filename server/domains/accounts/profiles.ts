import type { DomainError } from "#server/platform/errors";
import { and, eq, ne } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { logs, opportunityPosts, profiles, user, USER_TYPES, type UserType } from "#server/platform/db/schema";

/** `?type=` on sign-in/up: creator or sponsor; anything else means no type (SPEC §1). */
export function parseUserType(value: string | null | undefined): UserType | null {
  return (USER_TYPES as readonly string[]).includes(value ?? "") ? (value as UserType) : null;
}

/** A new user's profile and their signup log entry (type filled in by the sign-up form). */
export async function createProfileForNewUser(db: Db, user: { id: string; name: string }): Promise<void> {
  await db.insert(profiles).values({ uid: user.id, name: user.name.slice(0, 99) }).onConflictDoNothing();
  await db.insert(logs).values({ uid: user.id, collection: "users", docId: user.id, description: "signup" });
}

/** Records the type chosen at sign-up on the signup log entry and the profile. */
export async function recordSignupType(db: Db, uid: string, type: UserType | null): Promise<void> {
  if (!type) return;
  await db.update(logs).set({ type }).where(and(eq(logs.uid, uid), eq(logs.description, "signup")));
  await db.update(profiles).set({ userType: type, updatedAt: new Date() }).where(eq(profiles.uid, uid));
}

/**
 * The home's neutral choice, for someone who signed up with no type (a Google sign-up, or
 * sign-up without "I'm a …"): records it as sign-up would have, once. False when a type is
 * already there: a choice is never overwritten from here.
 */
export async function chooseAccountType(db: Db, uid: string, type: UserType): Promise<boolean> {
  const [profile] = await db.select({ userType: profiles.userType }).from(profiles).where(eq(profiles.uid, uid));
  if (!profile || profile.userType !== null) return false;
  await recordSignupType(db, uid, type);
  return true;
}

/** The account type as SPEC §1 derives it: from the signup log entry. */
export async function accountTypeOf(db: Db, uid: string): Promise<UserType | null> {
  const [entry] = await db
    .select({ type: logs.type })
    .from(logs)
    .where(and(eq(logs.uid, uid), eq(logs.description, "signup")))
    .limit(1);
  return parseUserType(entry?.type);
}

/** The account's own address, as it stands now (a caller without a session, such as an operation's, knows only the uid). */
export async function accountEmailOf(db: Db, uid: string): Promise<string | null> {
  const [row] = await db.select({ email: user.email }).from(user).where(eq(user.id, uid));
  return row?.email ?? null;
}

export type ProfileView = { uid: string; name: string; paymentsEnabled: boolean };

export async function getProfile(db: Db, uid: string): Promise<ProfileView | null> {
  const [row] = await db
    .select({ uid: profiles.uid, name: profiles.name, paymentsEnabled: profiles.paymentsEnabled })
    .from(profiles)
    .where(eq(profiles.uid, uid));
  return row ?? null;
}

export type SaveProfileResult = { kind: "SUCCESS"; name: string } | DomainError<"invalid-argument">;

/**
 * Public profile name: required and under 100 characters (SPEC §5 messages).
 * The person's posts carry the name they are shown with (SPEC §3 posted_by
 * {name, uid}), so it changes on them in the same transaction: lists and the
 * detail page keep reading one table, and a rename, which is rare, pays one
 * indexed update (opportunity_posts_poster_idx). createOpportunity reads the
 * name under a share lock, so a post made during a rename gets the new name.
 */
export async function saveProfileName(db: Db, uid: string, rawName: string): Promise<SaveProfileResult> {
  const name = rawName.trim();
  if (!name) return { kind: "ERROR", code: "invalid-argument", message: "Required" };
  if ([...name].length >= 100) return { kind: "ERROR", code: "invalid-argument", message: "Must be under 100 characters" };
  await db.transaction(async (tx) => {
    await tx
      .insert(profiles)
      .values({ uid, name })
      .onConflictDoUpdate({ target: profiles.uid, set: { name, updatedAt: new Date() } });
    // Cached guest pages show the poster's name on each post: the posts' trigger moves their generation.
    await tx
      .update(opportunityPosts)
      .set({ posterName: name })
      .where(and(eq(opportunityPosts.posterUid, uid), ne(opportunityPosts.posterName, name)));
  });
  return { kind: "SUCCESS", name };
}

/** Writes a failed sign-in to the log (SPEC §8). */
export async function logSignInFailure(db: Db, entry: { uid: string | null; code: string; email: string }): Promise<void> {
  await db.insert(logs).values({
    uid: entry.uid,
    collection: "users",
    docId: entry.email.slice(0, 320),
    description: entry.code,
    subtype: "SIGN_IN_WITH_EMAIL_AND_PASSWORD_ERROR",
    type: "error",
  });
}
