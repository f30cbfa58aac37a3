import { Link } from "react-router";
import { getSessionUser } from "#server/domains/auth/session";
import { directoryAccess, type DirectoryAccess } from "#server/domains/sponsor-directory/access";
import { PREVIEWS_PATH, SPONSORS_PATH } from "#isomorphic/sponsor-directory-links";
import { listSponsorPreviews } from "#server/domains/sponsor-directory/previews";
import { primaryButton, secondaryButton } from "#page-kit/forms";
import { ProUpsell } from "#app/components/sponsor-directory/ProUpsell";
import { SampleNoticeFor, SponsorPreviewCards } from "#app/components/sponsor-directory/SponsorCards";
import { pitchesProTo } from "#server/domains/pro/audience";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/previews";

const BACK_HERE = encodeURIComponent(PREVIEWS_PATH);

/**
 * The preview sample (SPEC external_sponsor_previews), open to everyone
 * (SPEC §2.1; ADR 0022): names, tags and one teaser sentence, never a blurb,
 * website or way to apply. What follows the sample depends on who asks: a
 * guest is offered Sign Up / Sign In, an unverified person the way to verify,
 * a verified person without Pro the upsell (a sponsor, the way to creators
 * instead), a Pro member the full directory.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getSessionUser(request, context);
  const access = await directoryAccess(context.db, user);
  const [previews, upsell] = await Promise.all([listSponsorPreviews(context.db), access === "preview" ? pitchesProTo(context.db, user!.id) : true]);
  return { access, previews, upsell };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Sponsor previews",
    description: "A sample of the companies in the sponsor directory: who they are and the kinds of creators they sponsor.",
    noindex: args.data?.access !== "guest",
  });

export default function SponsorPreviews({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold">Sponsor previews</h1>
      <p className="mt-2 max-w-2xl text-muted">
        A sample of the companies in the <Link to={SPONSORS_PATH}>sponsor directory</Link>.
      </p>
      <div className="mt-8 grid gap-8">
        {loaderData.access === "guest" ? <GuestInvite /> : null}
        <section aria-labelledby="sample-heading">
          <h2 id="sample-heading" className="sr-only">
            Companies in the sample
          </h2>
          {loaderData.previews.length === 0 ? (
            <p className="rounded-2xl bg-primary/5 p-6 text-lg">No previews are available right now.</p>
          ) : (
            <div className="grid gap-6">
              <SampleNoticeFor companies={loaderData.previews} />
              <SponsorPreviewCards previews={loaderData.previews} />
            </div>
          )}
        </section>
        <NextStep access={loaderData.access} upsell={loaderData.upsell} />
      </div>
    </div>
  );
}

function GuestInvite() {
  return (
    <section aria-label="Join to browse the directory" className="rounded-2xl border border-primary/20 bg-secondary/30 p-6">
      <p className="max-w-2xl">
        This is a sample of the directory. Sign up free to keep it at hand; with Pro you see every company, what it sponsors and how
        to apply, and search the directory by tag and by name.
      </p>
      <p className="mt-4 flex flex-wrap gap-3">
        <Link to={`/signup?redirectTo=${BACK_HERE}`} className={`${primaryButton} no-underline`}>
          Sign Up
        </Link>
        <Link to={`/signin?redirectTo=${BACK_HERE}`} className={`${secondaryButton} no-underline`}>
          Sign In
        </Link>
      </p>
    </section>
  );
}

function NextStep({ access, upsell }: { access: DirectoryAccess; upsell: boolean }) {
  if (access === "guest") return null;
  if (access === "unverified") {
    return (
      <p className="rounded-2xl bg-primary/5 p-6">
        <Link to="/app/verify">Verify your email address</Link> to browse the sponsor directory.
      </p>
    );
  }
  if (access === "pro") {
    return (
      <p>
        <Link to={SPONSORS_PATH}>Search all sponsors</Link>
      </p>
    );
  }
  return <ProUpsell returnTo={SPONSORS_PATH} upsell={upsell} />;
}
