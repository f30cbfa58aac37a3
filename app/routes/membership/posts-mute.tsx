import { Form, Link } from "react-router";
import { memberLinkKey } from "#server/domains/memberships/member-link";
import { muteMemberPosts, readMuteLink } from "#server/domains/memberships/post-mail";
import { FormNotice, primaryButton } from "#page-kit/forms";
import { readForm } from "#page-kit/form.server";
import { pageMeta } from "#page-kit/meta";
import { answerRefusal } from "#page-kit/respond.server";
import type { Route } from "./+types/posts-mute";

type PageData = { pageName: string | null; error: string | null; muted: boolean; done: boolean };

/**
 * The "Stop emails of posts" link in every post's mail, and its List-Unsubscribe header, open
 * without an account: GET shows a confirm button (link scanners that open every URL change
 * nothing); POST, or a mail client's one-click POST (RFC 8058), turns posts' mail off for this
 * membership. Receipts keep coming. server/main/app.ts lets the one-click POST past the
 * cross-site guard: the signed token is the permission.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const target = await readMuteLink(context.db, memberLinkKey(context.sessionSecret), params.token);
  if (target.kind === "ERROR") return answerRefusal<PageData>(target, { pageName: null, error: target.message, muted: false, done: false });
  return { pageName: target.pageName, error: null, muted: target.muted, done: false } satisfies PageData;
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const read = await readForm(request);
  if (read.kind === "ERROR") return answerRefusal<PageData>(read, { pageName: null, error: read.message, muted: false, done: false });
  const result = await muteMemberPosts(context.db, memberLinkKey(context.sessionSecret), params.token);
  if (result.kind === "ERROR") return answerRefusal<PageData>(result, { pageName: null, error: result.message, muted: false, done: false });
  context.logger.info({ oneClick: read.form.get("List-Unsubscribe") === "One-Click" }, "member posts' mail muted");
  return { pageName: result.pageName, error: null, muted: true, done: true } satisfies PageData;
}

// The token is a permission: never cached, never sent on as a Referer.
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" });

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Stop emails of posts", noindex: true });

export default function MutePosts({ loaderData, actionData, params }: Route.ComponentProps) {
  const shown = actionData ?? loaderData;
  return (
    <div className="mx-auto max-w-xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold">Stop emails of posts</h1>
      <div className="mt-6 space-y-4">
        {shown.error ? (
          <FormNotice>{shown.error}</FormNotice>
        ) : shown.done || shown.muted ? (
          <>
            <FormNotice kind="success">{`Done: we won't email you ${shown.pageName}'s posts any more. Receipts for your membership still come, and the posts stay on your members' page.`}</FormNotice>
            <p>
              <Link to={`/membership/${params.token}/posts`}>Read the posts</Link>
            </p>
          </>
        ) : (
          <>
            <p>{`Stop emails of ${shown.pageName}'s posts to members? You stay a member, receipts still come, and you can still read the posts on your members' page.`}</p>
            <Form method="post">
              <button type="submit" name="intent" value="mute" className={primaryButton}>
                Stop emails of posts
              </button>
            </Form>
          </>
        )}
      </div>
    </div>
  );
}
