import { eq } from "drizzle-orm";
import { Router } from "express";
import { user } from "#server/db/schema";
import { COMMAND_LINE } from "#server/staff/audit-log";
import { grantAdmin } from "#server/staff/roles";
import { HOOK_PATHS, type StaffAnswer } from "./contract";
import { hook, queryOf, type TestHooksDeps } from "./http";

/**
 * `staff`: makes an account staff as `npm run admin -- grant` does, and gives it two-factor
 * sign-in, so a spec can open the back office. `totpSecret` is the authenticator app's secret
 * (base32) the spec computes codes from, once two-factor sign-in is wired; null before.
 */
export function staffHooks(deps: TestHooksDeps): Router {
  const router = Router();
  router.get(
    HOOK_PATHS.staff,
    hook(async (req): Promise<StaffAnswer> => {
      const email = (queryOf(req).get("email") ?? "").toLowerCase();
      const granted = await grantAdmin(deps.db, email, COMMAND_LINE);
      if (granted.kind !== "SUCCESS") throw new Error(granted.message);
      const [row] = await deps.db.update(user).set({ twoFactorEnabled: true }).where(eq(user.email, email)).returning({ id: user.id });
      return { uid: row!.id, totpSecret: null };
    }),
  );
  return router;
}
