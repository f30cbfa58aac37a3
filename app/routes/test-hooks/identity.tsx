import { and, desc, eq } from "drizzle-orm";
import { data } from "react-router";
import { disableAccount, enableAccount } from "#server/auth/sessions";
import { logs } from "#server/db/schema";
import type { Route } from "./+types/identity";

/**
 * End-to-end helpers (ENABLE_TEST_ROUTES only): read the sign-in failure log
 * of an email, and disable (or enable again) an account as staff would (its sessions end at once).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (!context.config.ENABLE_TEST_ROUTES) throw data(null, { status: 404 });
  const url = new URL(request.url);
  const email = (url.searchParams.get("email") ?? "").toLowerCase();
  if (url.searchParams.get("do") === "disable") {
    await disableAccount(context.db, email);
    return Response.json({ disabled: email });
  }
  if (url.searchParams.get("do") === "enable") {
    await enableAccount(context.db, email);
    return Response.json({ enabled: email });
  }
  const entries = await context.db
    .select({ description: logs.description, subtype: logs.subtype, type: logs.type })
    .from(logs)
    .where(and(eq(logs.docId, email), eq(logs.subtype, "SIGN_IN_WITH_EMAIL_AND_PASSWORD_ERROR")))
    .orderBy(desc(logs.created));
  return Response.json(entries);
}
