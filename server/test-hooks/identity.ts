import { and, desc, eq } from "drizzle-orm";
import { Router } from "express";
import { disableAccount, enableAccount } from "#server/auth/sessions";
import { logs } from "#server/db/schema";
import { HOOK_PATHS, type IdentityAnswer } from "./contract";
import { hook, queryOf, type TestHooksDeps } from "./http";

/**
 * `identity`: an email's sign-in failure log (read only), and disabling or
 * enabling an account as staff would, through the functions that end its
 * sessions and move the guest page generation.
 */
export function identityHooks(deps: TestHooksDeps): Router {
  const router = Router();
  router.get(
    HOOK_PATHS.identity,
    hook(async (req): Promise<IdentityAnswer> => {
      const query = queryOf(req);
      const email = (query.get("email") ?? "").toLowerCase();
      if (query.get("do") === "disable") {
        await disableAccount(deps.db, email);
        return { disabled: email };
      }
      if (query.get("do") === "enable") {
        await enableAccount(deps.db, email);
        return { enabled: email };
      }
      return deps.db
        .select({ description: logs.description, subtype: logs.subtype, type: logs.type })
        .from(logs)
        .where(and(eq(logs.docId, email), eq(logs.subtype, "SIGN_IN_WITH_EMAIL_AND_PASSWORD_ERROR")))
        .orderBy(desc(logs.created));
    }),
  );
  return router;
}
