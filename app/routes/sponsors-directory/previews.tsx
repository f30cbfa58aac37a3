import { Link } from "react-router";
import { requireVerifiedUser } from "#server/auth/session";
import { SPONSORS_PATH } from "#server/sponsors/links";
import { listSponsorPreviews } from "#server/sponsors/previews";
import { ProUpsell } from "#app/components/sponsor-directory/ProUpsell";
import { SponsorPreviewCards } from "#app/components/sponsor-directory/SponsorCards";
import { pageMeta } from "#app/lib/meta";
import type { Route } from "./+types/previews";

/** The preview sample (SPEC external_sponsor_previews): any verified person, Pro or not. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireVerifiedUser(request, context);
  return { previews: await listSponsorPreviews(context.db) };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Sponsor previews", noindex: true });

export default function SponsorPreviews({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold">Sponsor previews</h1>
      <p className="mt-2 max-w-2xl text-muted">
        A sample of the companies in the <Link to={SPONSORS_PATH}>sponsor directory</Link>.
      </p>
      <div className="mt-8 grid gap-8">
        {loaderData.previews.length === 0 ? (
          <p className="rounded-2xl bg-primary/5 p-6 text-lg">No previews are available right now.</p>
        ) : (
          <SponsorPreviewCards previews={loaderData.previews} />
        )}
        <ProUpsell returnTo={SPONSORS_PATH} />
      </div>
    </div>
  );
}
