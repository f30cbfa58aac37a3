import { Link } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { listSentPosts } from "#server/domains/memberships/posts";
import { dateTimeFormat, localeFrom } from "#isomorphic/format";
import { primaryButton } from "#page-kit/forms";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/posts-list";

/** /app/members/posts: the creator's sent posts, newest first, with how many members each was mailed to. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const { posts, postsLeftToday } = await listSentPosts(context.db, { uid: user.id });
  const dates = dateTimeFormat(localeFrom(request.headers.get("Accept-Language")), "longDateUtc");
  return { postsLeftToday, posts: posts.map((post) => ({ ...post, sentAt: dates.format(post.sentAt) })) };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Posts to members", noindex: true });

export default function SentPosts({ loaderData }: Route.ComponentProps) {
  const { posts, postsLeftToday } = loaderData;
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
      <Link to="/app/members" className="text-sm font-semibold">
        ← Members
      </Link>
      <div className="mt-4 flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">Posts to members</h1>
        <Link to="/app/members/posts/new" className={primaryButton}>
          Write to members
        </Link>
      </div>
      <p className="mt-2 text-muted">{`You can send ${postsLeftToday} more post${postsLeftToday === 1 ? "" : "s"} in the next 24 hours.`}</p>
      {posts.length === 0 ? (
        <p className="mt-8">You have not written to your members yet.</p>
      ) : (
        <ul className="mt-8 divide-y divide-ink/15" aria-label="Sent posts">
          {posts.map((post) => (
            <li key={post.id} className="py-4">
              <p className="break-words text-lg font-semibold">{post.subject}</p>
              <p className="mt-1 text-sm text-muted">
                {`${post.sentAt} · ${post.pageName} · ${post.audienceLabel} · `}
                <span data-testid="recipients">{`${post.recipientCount} recipient${post.recipientCount === 1 ? "" : "s"}`}</span>
              </p>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
