import { Link } from "react-router";
import type { SponsorshipChoices } from "#server/domains/bio/sponsorship-options";
import { formatMoney } from "#isomorphic/format";

/**
 * SPEC §5: a page offers only its owner's own opportunity posts, and only
 * when their profile takes payments. When the list is empty the picker says
 * why and where to fix it.
 */
export function SponsorshipPicker({ choices, chosen, error, locale, max }: { choices: SponsorshipChoices; chosen: string[]; error?: string; locale: string; max: number }) {
  const picked = new Set(chosen);
  return (
    <fieldset aria-describedby={`sponsorships-hint${error ? " sponsorships-error" : ""}`}>
      <legend className="font-medium">Sponsorship options</legend>
      <div id="sponsorships-hint" className="mt-1 text-sm text-muted">
        {!choices.paymentsEnabled ? (
          <p>
            Sponsorship options let visitors pay you for one of your opportunities, so they need payments: <Link to="/app/payments/setup">set up payments</Link> and
            your opportunities will appear here.
          </p>
        ) : choices.posts.length === 0 ? (
          <p>
            You haven't posted any opportunities yet. <Link to="/app/opportunities/new">Post an opportunity</Link> and you can offer it here.
          </p>
        ) : (
          <p>Choose up to {max} of your opportunities to offer on this page.</p>
        )}
      </div>
      {error ? (
        <p id="sponsorships-error" className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
      {!choices.paymentsEnabled && chosen.length > 0 ? (
        <p className="mt-2 rounded-lg bg-primary/5 px-3 py-2 text-sm">
          {chosen.length === 1 ? "This page has 1 sponsorship option" : `This page has ${chosen.length} sponsorship options`}: visitors don't see{" "}
          {chosen.length === 1 ? "it" : "them"} while payments are off, and saving keeps {chosen.length === 1 ? "it" : "them"}.
          {chosen.map((postId) => (
            <input key={postId} type="hidden" name="sponsorship" value={postId} />
          ))}
        </p>
      ) : null}
      {choices.posts.length > 0 ? (
        <ul className="mt-3 space-y-2">
          {choices.posts.map((post) => (
            <li key={post.id}>
              <label className="flex items-start gap-3">
                <input type="checkbox" name="sponsorship" value={post.id} defaultChecked={picked.has(post.id)} className="mt-1 h-5 w-5 flex-none" />
                <span className="min-w-0 break-words">
                  {post.title}
                  {post.minContributionCents > 0 ? (
                    <span className="text-muted"> · from {formatMoney(post.minContributionCents, "usd", locale)}</span>
                  ) : null}
                </span>
              </label>
            </li>
          ))}
        </ul>
      ) : null}
    </fieldset>
  );
}
