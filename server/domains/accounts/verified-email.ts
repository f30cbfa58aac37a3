import { eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { user } from "#server/platform/db/schema";
import { refusal, success, type Refusal, type Result } from "#server/platform/errors";

export type UnverifiedEmail = Refusal<"permission-denied", "EMAIL_NOT_VERIFIED">;

/**
 * The pages' rule for posting and editing (`requireVerifiedUser` sends an unverified person to
 * /app/verify) for callers without a session, such as an API key: read from the account itself,
 * so a key made before its account's address changed cannot post while the new one is unverified.
 */
export async function requireVerifiedEmail(db: Db, uid: string): Promise<Result<object, UnverifiedEmail>> {
  const [row] = await db.select({ verified: user.emailVerified }).from(user).where(eq(user.id, uid));
  if (!row?.verified) return refusal("permission-denied", "EMAIL_NOT_VERIFIED", "Verify your email address in the app first: posting and editing need a verified address.");
  return success();
}
