import { requireVerifiedUser } from "#server/domains/auth/session";
import { membersCsv } from "#server/domains/memberships/members-csv";
import { parseMemberFilter } from "#isomorphic/members";
import { rawAnswer, refuseWith } from "#page-kit/respond.server";
import type { Route } from "./+types/members-csv";

/**
 * GET /app/members.csv: the signed-in creator's members as the list's filters show them
 * (server/domains/memberships/members-csv.ts). Only their own: the query is by the signed-in
 * person; a page or tier of anyone else's is not found.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const { pageId, tierId, state } = parseMemberFilter(new URL(request.url).searchParams);
  const file = await membersCsv(context.db, user.id, { pageId, tierId, state });
  if (file.kind === "ERROR") refuseWith(file);
  return rawAnswer(file.csv, {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${file.filename}"`,
    "Cache-Control": "private, no-store",
  });
}
