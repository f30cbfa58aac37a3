import { Link, redirect } from "react-router";
import { getSessionAccount, requireVerifiedUser } from "#server/domains/auth/session";
import { chooseAccountType, parseUserType } from "#server/domains/accounts/profiles";
import { SETUP_STEPS } from "#server/domains/bio/readiness";
import { readCreatorHome } from "#server/features/creator-home/creator-home";
import { readForm } from "#page-kit/form.server";
import { CreatorHome } from "#app/components/home/CreatorHome";
import { CreatorStart, NEW_PAGE_PATH } from "#app/components/home/CreatorStart";
import { RoleChoice } from "#app/components/home/RoleChoice";
import { SetupProgress } from "#app/components/home/SetupProgress";
import { SponsorHome } from "#app/components/home/SponsorHome";
import { localeFrom } from "#isomorphic/format";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/dashboard";
import { creatorHomeView } from "./creator-home.server";

type Card = { id: string; title: string; text: string; to: string };

const TASKS: Card[] = [
  { id: "find-sponsors", title: "Find Sponsors", text: "Search companies that sponsor creators.", to: "/app/sponsors" },
  { id: "collect-tips", title: "Collect Tips", text: "Publish a bio page and get paid by fans and brands.", to: "/app/account/bizbio" },
  { id: "create-opportunity", title: "Create Opportunity", text: "Post a paid sponsorship for creators.", to: "/app/opportunities/new" },
  { id: "manage-account", title: "Manage Account", text: "Profile, password, payments and Pro.", to: "/app/account" },
];

const opportunitiesTagged = (tag: string) => `/app/opportunities?${new URLSearchParams([["tags[]", tag]])}`;

// SPEC §2.5: each card filters the opportunity list by one sponsorship type (the last by none).
const CREATOR_TYPES: Card[] = [
  { id: "find-youtubers", title: "Find YouTubers", text: "YouTube sponsorships", to: opportunitiesTagged("youtube sponsorship") },
  { id: "find-streamers", title: "Find Streamers", text: "Streamer sponsorships", to: opportunitiesTagged("streamer sponsorship") },
  { id: "find-podcasts", title: "Find Podcasts", text: "Podcast sponsorships", to: opportunitiesTagged("podcast sponsorship") },
  { id: "find-influencers", title: "Find Influencers", text: "Influencer sponsorships", to: opportunitiesTagged("influencer sponsorship") },
  { id: "view-all", title: "View All Marketing Opportunities", text: "Every open opportunity", to: "/app/opportunities" },
];

/**
 * The home opens with the person's own side (profiles.user_type, read with the session): a
 * sponsor's two first steps; a creator's page figures, or "Make your page" before there is one;
 * someone with no type a neutral choice. SPEC's heading and cards follow, for everyone.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const role = (await getSessionAccount(request, context))?.userType ?? null;
  const base = { name: user.name, role, locale: localeFrom(request.headers.get("Accept-Language")) };
  if (role === "sponsor") return { ...base, home: null, setup: null };
  const { home } = await readCreatorHome(context.db, user.id);
  if (!home) return { ...base, home: null, setup: null };
  const view = await creatorHomeView(home, context.config.BIO_ORIGIN);
  const setup = home.page.setup.complete ? null : { name: home.page.name, doneCount: home.page.setup.doneCount, total: SETUP_STEPS.length };
  // While the checklist is unfinished it names the next step itself; the home keeps only a disabled account's notice.
  const nextStep = setup && view.page.nextStep !== "owner-disabled" ? null : view.page.nextStep;
  return { ...base, home: { ...view, page: { ...view.page, nextStep } }, setup };
}

/** The neutral choice's answer: recorded once (never over a type already chosen), then that side's first run. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireVerifiedUser(request, context);
  const read = await readForm(request);
  const role = read.kind === "SUCCESS" && read.form.get("intent") === "choose-role" ? parseUserType(String(read.form.get("role") ?? "")) : null;
  if (!role) throw redirect("/app");
  await chooseAccountType(context.db, user.id, role);
  throw redirect(role === "creator" ? NEW_PAGE_PATH : "/app");
}

// Rendered from its loader data alone: the same data is sent as the document rendered before (server/platform/http/rendered-documents.ts).
export const handle = { rendersFromDataOnly: true };

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Dashboard" });

/** A card in two variants, each tagged for tracking: compact on phones, large from md up. */
function DashboardCard({ card }: { card: Card }) {
  return (
    <li>
      <Link
        to={card.to}
        data-track={`dashboard:${card.id}:mobile`}
        className="flex items-center justify-between rounded-xl border border-primary/20 bg-white px-4 py-3 font-semibold text-ink no-underline md:hidden"
      >
        {card.title}
        <span aria-hidden="true">→</span>
      </Link>
      <Link
        to={card.to}
        data-track={`dashboard:${card.id}:large`}
        className="hidden h-full flex-col rounded-2xl border border-primary/15 bg-white p-6 text-ink no-underline shadow-sm hover:border-primary hover:shadow-md md:flex"
      >
        <span className="text-lg font-bold">{card.title}</span>
        <span className="mt-2 text-muted">{card.text}</span>
      </Link>
    </li>
  );
}

function RoleHome({ data }: { data: Route.ComponentProps["loaderData"] }) {
  if (data.role === "sponsor") return <SponsorHome />;
  return (
    <>
      {data.role === null ? <RoleChoice /> : null}
      {data.setup ? <SetupProgress {...data.setup} /> : null}
      {data.home ? <CreatorHome home={data.home} locale={data.locale} /> : data.role === "creator" ? <CreatorStart /> : null}
    </>
  );
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:py-14">
      <p className="text-muted">Hi {loaderData.name}!</p>
      <div className="mt-4">
        <RoleHome data={loaderData} />
      </div>
      {/* SPEC §2.5's launcher, for both sides: each group says whom it is for. */}
      <h1 className="mt-1 text-3xl font-bold">What would you like to do today?</h1>
      <p className="mt-1 text-muted">Everything in Sponsorgrid, for creators and sponsors alike.</p>
      <ul className="mt-6 grid gap-3 md:grid-cols-2 md:gap-6 lg:grid-cols-4">
        {TASKS.map((card) => (
          <DashboardCard key={card.id} card={card} />
        ))}
      </ul>
      <h2 className="mt-14 text-2xl font-bold">What type of creator are you looking for?</h2>
      <p className="mt-1 text-muted">For sponsors: open sponsorships, by the kind of creator they are for.</p>
      <ul className="mt-6 grid gap-3 md:grid-cols-3 md:gap-6 lg:grid-cols-5">
        {CREATOR_TYPES.map((card) => (
          <DashboardCard key={card.id} card={card} />
        ))}
      </ul>
    </div>
  );
}
