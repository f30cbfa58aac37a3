import { Link } from "react-router";
import { AccountPostList } from "#app/components/opportunities/AccountPostList";
import { primaryButton } from "#page-kit/forms";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/my-posts";
import { loadAccountList } from "./account-lists.server";

export const loader = ({ request, context }: Route.LoaderArgs) => loadAccountList(request, context, "mine");

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "My Posts" });

export default function MyPosts({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:py-14">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h1 className="text-3xl font-bold">My Posts</h1>
        <Link to="/app/opportunities/new" className={`${primaryButton} no-underline`}>
          New
        </Link>
      </div>
      <AccountPostList
        first={loaderData.page}
        kind="mine"
        emptyText="You haven't posted any opportunities yet."
        appName={loaderData.appName}
        locale={loaderData.locale}
      />
    </div>
  );
}
