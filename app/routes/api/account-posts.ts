import { refuse } from "#page-kit/respond.server";
import { loadAccountList } from "#app/routes/opportunities/account-lists.server";
import type { Route } from "./+types/account-posts";

/** The next 50 of My Posts or Liked Posts, as JSON, for 'Load more'. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const kind = new URL(request.url).searchParams.get("kind");
  if (kind !== "mine" && kind !== "liked") refuse("invalid-argument", "kind must be mine or liked");
  const { page } = await loadAccountList(request, context, kind);
  return Response.json(page, { headers: { "Cache-Control": "private, no-store" } });
}
