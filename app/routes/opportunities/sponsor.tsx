import { Link } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { primaryButton, secondaryButton } from "#page-kit/forms";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/sponsor";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireVerifiedUser(request, context);
  return { appName: context.config.APP_NAME };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Become a Sponsor" });

const STEPS = [
  {
    title: "Post a brief, or find a creator",
    text: "Describe the campaign, your budget and what you need made; creators apply with a pitch and a price. Or browse creators' pages and their sponsorship requests, and make an offer.",
  },
  {
    title: "Agree the terms",
    text: "Price, deliverables with due dates, usage rights, exclusivity, #ad disclosure and whether you approve content first. Either side can answer with new terms; every version is kept.",
  },
  {
    title: "Pay once, release on approval",
    text: "Once you both agree, you pay by card and we hold the money. The creator is paid when you approve the work, and you both see the platform's fee before anyone agrees.",
  },
];

export default function BecomeASponsor({ loaderData }: Route.ComponentProps) {
  const { appName } = loaderData;
  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold">Become a Sponsor</h1>
      <p className="mt-3 text-lg text-muted">
        Reach YouTubers, streamers, podcasters and influencers who are looking for brand partners, agree the terms here, and pay only for work you approve. Posting on {appName} is free.
      </p>
      <ol className="mt-10 grid gap-6 md:grid-cols-3">
        {STEPS.map((step, index) => (
          <li key={step.title} className="rounded-2xl border border-primary/15 p-6 shadow-sm">
            <span className="text-3xl font-extrabold text-primary">{index + 1}</span>
            <h2 className="mt-2 text-lg font-bold">{step.title}</h2>
            <p className="mt-2 text-muted">{step.text}</p>
          </li>
        ))}
      </ol>
      <section aria-labelledby="good-post" className="mt-12 rounded-2xl bg-secondary/30 p-6 sm:p-8">
        <h2 id="good-post" className="text-xl font-bold">
          What makes a post creators answer
        </h2>
        <ul className="mt-4 list-disc space-y-2 pl-6">
          <li>A clear budget. Posts with a minimum contribution get more replies than “budget on request”.</li>
          <li>Concrete deliverables: one 60-second mid-roll, two stories, a pinned comment.</li>
          <li>Who you want: audience size, niche, location. Creators filter by these tags.</li>
          <li>A real deadline, and a contact who answers.</li>
        </ul>
        <p className="mt-4">
          Read the <Link to="/finding-the-best-sponsorships">guide to finding the best sponsorships</Link> to see it from the creator's side.
        </p>
      </section>
      <div className="mt-10 flex flex-wrap gap-3">
        <Link to="/app/opportunities/new?kind=brief" className={`${primaryButton} no-underline`}>
          Post a brief
        </Link>
        <Link to="/app/profiles" className={`${secondaryButton} no-underline`}>
          Browse creators
        </Link>
        <Link to="/app/opportunities" className={`${secondaryButton} no-underline`}>
          See creators' requests
        </Link>
        <Link to="/app/deals" className={`${secondaryButton} no-underline`}>
          Your deals
        </Link>
      </div>
    </div>
  );
}
