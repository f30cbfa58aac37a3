import { redirect, type AppLoadContext } from "react-router";
import { requireVerifiedUser, type SessionUser } from "#server/domains/auth/session";
import { getProStatus, type ProStatus } from "./pro-status";

/** Where a non-Pro person is sent: the Pro page, which brings them back here once they have paid. */
export function proUpsellPath(returnTo: string): string {
  return `/app/pro?returnTo=${encodeURIComponent(returnTo)}`;
}

/**
 * Signed in, verified, and Pro (SPEC §6): otherwise off to /signin, /app/verify
 * or /app/pro (and back afterwards). For reads that have no non-Pro fallback,
 * such as recently added sponsors and a company's detail page.
 */
export async function requirePro(
  request: Request,
  context: Pick<AppLoadContext, "auth" | "db">,
): Promise<{ user: SessionUser; pro: ProStatus }> {
  const user = await requireVerifiedUser(request, context);
  const pro = await getProStatus(context.db, user.id);
  if (!pro.isPro) {
    const url = new URL(request.url);
    throw redirect(proUpsellPath(`${url.pathname}${url.search}`));
  }
  return { user, pro };
}
