import type { AppLoadContext } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { listLikedBy, listPostsBy } from "#server/domains/opportunities/read";
import { localeFrom } from "#isomorphic/format";

/** My Posts and Liked Posts: the signed-in user's first (or next) 50. */
export async function loadAccountList(request: Request, context: AppLoadContext, kind: "mine" | "liked") {
  const user = await requireVerifiedUser(request, context);
  const after = new URL(request.url).searchParams.get("after");
  const cursor = after && after.length <= 200 ? after : null;
  const page = kind === "mine" ? await listPostsBy(context.db, user.id, cursor) : await listLikedBy(context.db, user.id, cursor);
  return { page, appName: context.config.APP_NAME, locale: localeFrom(request.headers.get("Accept-Language")) };
}
