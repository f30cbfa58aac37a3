import { redirect } from "react-router";
import { requireUser, type SessionUser } from "./session";
import type { Auth } from "./auth";
import type { Db } from "#server/platform/db/client";
import { refuse } from "#page-kit/respond.server";
import type { Actor } from "#server/platform/audit/audit-log";
import { staffStanding } from "#server/domains/staff/roles";

/** Where an admin without an authenticator app is sent to enrol one, and back. */
export const TWO_FACTOR_SETUP_PATH = "/app/account/two-factor";
export const ADMIN_PATH = "/app/admin";

export type StaffUser = SessionUser & { actor: Actor };

/**
 * The one guard of every back-office loader and action (`/app/admin/…`): a guest is sent to sign
 * in; anyone who is not staff gets the site's 404 (the back office is not advertised); staff
 * without two-factor sign-in are sent to enrol an authenticator app first. Read from the database
 * on every request, so a revoked role is out at once.
 */
export async function requireStaff(request: Request, context: { auth: Auth; db: Db }): Promise<StaffUser> {
  const user = await requireUser(request, context);
  const standing = await staffStanding(context.db, user.id);
  if (!standing.admin) refuse("not-found");
  if (!standing.twoFactorEnabled) {
    const url = new URL(request.url);
    throw redirect(`${TWO_FACTOR_SETUP_PATH}?next=${encodeURIComponent(`${url.pathname}${url.search}`)}`);
  }
  return { ...user, actor: { kind: "staff", id: user.id, email: user.email } };
}
