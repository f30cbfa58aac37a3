import { Link } from "react-router";
import { AccountPostList } from "#app/components/opportunities/AccountPostList";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/liked";
import { loadAccountList } from "./account-lists.server";

export const loader = ({ request, context }: Route.LoaderArgs) => loadAccountList(request, context, "liked");

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Liked Posts" });

export default function LikedPosts({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold">Liked Posts</h1>
      <p className="mt-2 text-muted">
        Opportunities you saved with a heart. <Link to="/app/opportunities">Browse more</Link>
      </p>
      <AccountPostList
        first={loaderData.page}
        kind="liked"
        emptyText="You haven't liked any opportunities yet."
        appName={loaderData.appName}
        locale={loaderData.locale}
      />
    </div>
  );
}
