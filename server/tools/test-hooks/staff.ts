import crypto from "node:crypto";
import { base32 } from "@better-auth/utils/base32";
import { symmetricEncrypt } from "better-auth/crypto";
import { eq } from "drizzle-orm";
import { Router } from "express";
import { twoFactor, user } from "#server/platform/db/schema";
import { COMMAND_LINE } from "#server/platform/audit/audit-log";
import { grantAdmin } from "#server/domains/staff/roles";
import { HOOK_PATHS, type StaffAnswer } from "./contract";
import { hook, queryOf, type TestHooksDeps } from "./http";

/**
 * An authenticator app enrolled as better-auth's two-factor plugin stores one after its first
 * code (ADR 0049): a random secret and recovery codes, both encrypted with the auth secret, the
 * row verified and the user's flag on. The spec then signs in through the real code step, where
 * the plugin decrypts this secret: a format that drifted would fail every staff spec.
 */
async function enrolAuthenticator(deps: TestHooksDeps, userId: string): Promise<string> {
  const ctx = await deps.auth.$context;
  const raw = crypto.randomBytes(24).toString("base64url").slice(0, 32);
  const recoveryCodes = Array.from({ length: 10 }, () => crypto.randomBytes(5).toString("hex"));
  await deps.db.transaction(async (tx) => {
    await tx.delete(twoFactor).where(eq(twoFactor.userId, userId));
    await tx.insert(twoFactor).values({
      id: crypto.randomUUID(),
      userId,
      secret: await symmetricEncrypt({ key: ctx.secretConfig, data: raw }),
      backupCodes: await symmetricEncrypt({ key: ctx.secretConfig, data: JSON.stringify(recoveryCodes) }),
      verified: true,
    });
    await tx.update(user).set({ twoFactorEnabled: true }).where(eq(user.id, userId));
  });
  return base32.encode(new TextEncoder().encode(raw), { padding: false });
}

/**
 * `staff`: makes an account staff as `npm run admin -- grant` does, and enrols an authenticator
 * app for it, so a spec can sign in through the code step and open the back office. `totpSecret`
 * is the app's secret (base32) the spec computes codes from; null with `twoFactor=off`.
 */
export function staffHooks(deps: TestHooksDeps): Router {
  const router = Router();
  router.get(
    HOOK_PATHS.staff,
    hook(async (req): Promise<StaffAnswer> => {
      const email = (queryOf(req).get("email") ?? "").toLowerCase();
      const granted = await grantAdmin(deps.db, email, COMMAND_LINE);
      if (granted.kind !== "SUCCESS") throw new Error(granted.message);
      const [row] = await deps.db.select({ id: user.id }).from(user).where(eq(user.email, email));
      // `twoFactor=off`: staff who have not enrolled yet (the back office sends them to enrol).
      if (queryOf(req).get("twoFactor") === "off") return { uid: row!.id, totpSecret: null };
      return { uid: row!.id, totpSecret: await enrolAuthenticator(deps, row!.id) };
    }),
  );
  return router;
}
