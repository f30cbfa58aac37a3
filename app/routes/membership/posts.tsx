import { Link } from "react-router";
import { bioPageAddress } from "#server/domains/bio/qr";
import { memberLinkKey } from "#server/domains/memberships/member-link";
import { readMemberPosts } from "#server/domains/memberships/posts";
import { dateTimeFormat, localeFrom } from "#isomorphic/format";
import { pageMeta } from "#page-kit/meta";
import { answerRefusal } from "#page-kit/respond.server";
import { MemberPostsRefused, type RefusedLink } from "#app/components/memberships/MemberPostsRefused";
import type { Route } from "./+types/posts";

type PageData =
  | { refused: null; pageName: string; tierName: string; posts: { id: string; subject: string; excerpt: string; sentAt: string; audienceLabel: string }[] }
  | { refused: RefusedLink };

/** /membership/<token>/posts: the posts a current member's signed link opens, newest first (no account needed). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const result = await readMemberPosts(context.db, memberLinkKey(context.sessionSecret), params.token);
  if (result.kind === "ERROR") {
    const joinUrl = "customEnding" in result ? bioPageAddress(context.config.BIO_ORIGIN, result.customEnding) : null;
    return answerRefusal<PageData>(result, { refused: { message: result.message, ended: result.reason === "MEMBERSHIP_ENDED", joinUrl, pageName: "pageName" in result ? result.pageName : null } });
  }
  const dates = dateTimeFormat(localeFrom(request.headers.get("Accept-Language")), "longDateUtc");
  return { refused: null, pageName: result.pageName, tierName: result.tierName, posts: result.posts.map((post) => ({ ...post, sentAt: dates.format(post.sentAt) })) } satisfies PageData;
}

// The token is a permission: never cached, never sent on as a Referer.
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" });

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Members' posts", noindex: true });

export default function MemberPosts({ loaderData, params }: Route.ComponentProps) {
  const data = loaderData as PageData;
  if (data.refused) return <MemberPostsRefused refused={data.refused} />;
  return (
    <div className="mx-auto max-w-2xl px-4 py-10 sm:py-14">
      <p className="text-sm text-muted">{`Your ${data.tierName} membership`}</p>
      <h1 className="mt-1 break-words text-3xl font-bold">{`Posts from ${data.pageName}`}</h1>
      <p className="mt-2">
        <Link to={`/membership/${params.token}`}>Your membership</Link>
      </p>
      {data.posts.length === 0 ? (
        <p className="mt-8">{`${data.pageName} has not written to members yet.`}</p>
      ) : (
        <ul className="mt-8 divide-y divide-ink/15" aria-label="Posts">
          {data.posts.map((post) => (
            <li key={post.id} className="py-4">
              <Link to={`/membership/${params.token}/posts/${post.id}`} className="break-words text-lg font-semibold">
                {post.subject}
              </Link>
              <p className="mt-1 text-sm text-muted">{`${post.sentAt} · For ${post.audienceLabel.toLowerCase()}`}</p>
              <p className="mt-1 break-words">{post.excerpt}</p>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
