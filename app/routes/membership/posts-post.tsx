import { Link } from "react-router";
import { bioPageAddress } from "#server/domains/bio/qr";
import { memberLinkKey } from "#server/domains/memberships/member-link";
import { readMemberPost } from "#server/domains/memberships/posts";
import { dateTimeFormat, localeFrom } from "#isomorphic/format";
import { pageMeta } from "#page-kit/meta";
import { answerRefusal } from "#page-kit/respond.server";
import { MemberPostsRefused, type RefusedLink } from "#app/components/memberships/MemberPostsRefused";
import type { Route } from "./+types/posts-post";

type PageData =
  | { refused: null; pageName: string; post: { id: string; subject: string; paragraphs: string[]; sentAt: string; audienceLabel: string } }
  | { refused: RefusedLink };

/** /membership/<token>/posts/<postId>: one post, for a current member of its page and of its tier (or of any tier, when it went to everyone). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const result = await readMemberPost(context.db, memberLinkKey(context.sessionSecret), params.token, params.postId);
  if (result.kind === "ERROR") {
    const joinUrl = "customEnding" in result ? bioPageAddress(context.config.BIO_ORIGIN, result.customEnding) : null;
    return answerRefusal<PageData>(result, { refused: { message: result.message, ended: result.reason === "MEMBERSHIP_ENDED", joinUrl, pageName: "pageName" in result ? result.pageName : null } });
  }
  const dates = dateTimeFormat(localeFrom(request.headers.get("Accept-Language")), "longDateUtc");
  return { refused: null, pageName: result.pageName, post: { ...result.post, sentAt: dates.format(result.post.sentAt) } } satisfies PageData;
}

// The token is a permission: never cached, never sent on as a Referer.
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" });

export const meta: Route.MetaFunction = (args) => {
  const data = args.data as PageData | undefined;
  return pageMeta(args, { title: data && !data.refused ? data.post.subject : "Members' post", noindex: true });
};

export default function MemberPost({ loaderData, params }: Route.ComponentProps) {
  const data = loaderData as PageData;
  if (data.refused) return <MemberPostsRefused refused={data.refused} />;
  const { post } = data;
  return (
    <article className="mx-auto max-w-2xl px-4 py-10 sm:py-14">
      <Link to={`/membership/${params.token}/posts`} className="text-sm font-semibold">
        {`← All posts from ${data.pageName}`}
      </Link>
      <h1 className="mt-4 break-words text-3xl font-bold">{post.subject}</h1>
      <p className="mt-1 text-sm text-muted">{`${data.pageName} · ${post.sentAt} · For ${post.audienceLabel.toLowerCase()}`}</p>
      <div className="mt-6 space-y-4 text-lg">
        {post.paragraphs.map((paragraph, index) => (
          <p key={index} className="whitespace-pre-line break-words">
            {paragraph}
          </p>
        ))}
      </div>
    </article>
  );
}
