import { data } from "react-router";
import { getSessionUser } from "#server/auth/session";
import { opportunityPosts } from "#server/db/schema";
import { newOpportunityId } from "#server/opportunities/ids";
import type { Route } from "./+types/opportunity-post";

/**
 * End-to-end helper (ENABLE_TEST_ROUTES only, behind the loopback + secret
 * guard): an opportunity post of the signed-in user's, so a spec can offer it
 * as a bio page's sponsorship option without creating a post the way people do.
 * On purpose it does NOT count in the "opportunity posts" total and is dated
 * 2001, so it sorts after every real post: tests/e2e/opportunities.spec.ts,
 * which checks that the total rises by exactly one and pages through the
 * newest posts, sees no difference, whichever specs run beside it.
 * `?min=<cents>` sets the minimum contribution (default 0), `?title=` the title.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (!context.config.ENABLE_TEST_ROUTES) throw data(null, { status: 404 });
  const user = await getSessionUser(request, context);
  if (!user) throw data("Sign in first", { status: 401 });
  const params = new URL(request.url).searchParams;
  const min = Number(params.get("min") ?? "0");
  if (!Number.isSafeInteger(min) || min < 0) throw data("min must be whole cents", { status: 400 });
  const posted = new Date(Date.UTC(2001, 0, 1) + Math.floor(Math.random() * 86_400_000));
  const id = newOpportunityId(posted);
  await context.db.insert(opportunityPosts).values({
    id,
    title: params.get("title") || "E2E sponsorship",
    description: "A post made by the end-to-end suite.",
    posterUid: user.id,
    posterName: user.name,
    minContributionCents: min,
    datePosted: posted,
    updatedAt: posted,
  });
  return Response.json({ id });
}
