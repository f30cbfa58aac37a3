import { Link } from "react-router";

export const BROWSE_CREATORS_PATH = "/app/profiles";
export const POST_BRIEF_PATH = "/app/opportunities/new";

const step = "flex h-full flex-col rounded-2xl border border-primary/15 bg-white p-5 text-ink no-underline shadow-sm hover:border-primary hover:shadow-md";

/**
 * A sponsor's home above SPEC's dashboard: the two things a sponsor comes to do, in the order a
 * first visit does them (see who is out there, then say what you want made), and where their briefs
 * and deals are once they have some.
 */
export function SponsorHome() {
  return (
    <section aria-labelledby="sponsor-home-heading" className="mb-14 rounded-2xl bg-primary/5 p-5 sm:p-6" data-sponsor-home>
      <h2 id="sponsor-home-heading" className="text-2xl font-bold">
        Find creators for your brand
      </h2>
      <p className="mt-1 text-muted">Two steps to your first sponsorship: see who fits, then tell them what you want made.</p>
      <ol className="mt-5 grid gap-4 md:grid-cols-2">
        <li>
          <Link to={BROWSE_CREATORS_PATH} className={step}>
            <span className="text-sm font-semibold text-primary">Step 1</span>
            <span className="mt-1 text-lg font-bold">Browse creators</span>
            <span className="mt-1 text-muted">Their pages, what they make and the sponsorships they offer.</span>
          </Link>
        </li>
        <li>
          <Link to={POST_BRIEF_PATH} className={step}>
            <span className="text-sm font-semibold text-primary">Step 2</span>
            <span className="mt-1 text-lg font-bold">Post a brief</span>
            <span className="mt-1 text-muted">What you want made, by when and for how much. Creators apply; you pay to book.</span>
          </Link>
        </li>
      </ol>
      <p className="mt-4 flex flex-wrap gap-x-5 gap-y-1 text-sm">
        <Link to="/app/account/opportunities" className="font-semibold">
          Your briefs
        </Link>
        <Link to="/app/deals" className="font-semibold">
          Your deals
        </Link>
      </p>
    </section>
  );
}
