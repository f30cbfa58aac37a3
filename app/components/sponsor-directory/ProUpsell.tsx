import { Link } from "react-router";
import { proUpsellPath } from "./pro-path";

/**
 * "Become a Pro": what Pro adds to the directory, and the way to it. The Pro
 * page brings the person back to `returnTo` (the current path and search)
 * once they have paid. A sponsor (`upsell` false) is not sold a directory of
 * sponsors: they are pointed to the creators instead.
 */
export function ProUpsell({ returnTo, headingLevel = 2, upsell = true }: { returnTo: string; headingLevel?: 2 | 3; upsell?: boolean }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  if (!upsell) {
    return (
      <section aria-label="Looking for creators?" className="rounded-2xl border border-primary/20 bg-secondary/30 p-6">
        <Heading className="text-xl font-bold">Looking for creators?</Heading>
        <p className="mt-2 max-w-2xl">
          This directory lists companies that sponsor creators, for creators looking for sponsors. As a sponsor, browse creators on{" "}
          <Link to="/app/profiles">Profiles</Link> and the <Link to="/app/opportunities">Opportunities</Link> they post.
        </p>
      </section>
    );
  }
  return (
    <section aria-label="Become a Pro" className="rounded-2xl border border-primary/20 bg-secondary/30 p-6">
      <Heading className="text-xl font-bold">Become a Pro</Heading>
      <p className="mt-2 max-w-2xl">
        Pro members see every company in the directory with its full blurb, website and how to apply, search by tag and by name,
        and see the sponsors added most recently.
      </p>
      <Link to={proUpsellPath(returnTo)} className="mt-4 inline-flex items-center justify-center rounded-full bg-primary px-6 py-3 font-semibold text-white no-underline hover:bg-primary-dark">
        Upgrade to Pro
      </Link>
    </section>
  );
}
