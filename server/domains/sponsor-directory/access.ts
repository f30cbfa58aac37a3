import type { SessionUser } from "#server/domains/auth/session";
import type { Db } from "#server/platform/db/client";
import { getProStatus } from "#server/domains/pro/pro-status";

/**
 * Who may read what of the directory (SPEC §4, §6, §8; ADR 0022):
 * - guest: what the directory is, and sign up / sign in;
 * - unverified: a prompt to verify (sponsor lists need a verified email);
 * - preview: verified without Pro: the preview sample only;
 * - pro: blurbs, search, recents and details.
 */
export type DirectoryAccess = "guest" | "unverified" | "preview" | "pro";

export async function directoryAccess(db: Db, user: SessionUser | null): Promise<DirectoryAccess> {
  if (!user) return "guest";
  if (!user.emailVerified) return "unverified";
  return (await getProStatus(db, user.id)).isPro ? "pro" : "preview";
}
