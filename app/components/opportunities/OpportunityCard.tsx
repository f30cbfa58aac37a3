import { Link } from "react-router";
import type { OpportunitySummary } from "../../../server/opportunities/list";
import { contributionText } from "./ContributionText";
import { HeartButton } from "./HeartButton";
import { LocalDateTime } from "./LocalDateTime";

export function OpportunityCard({ post, appName, locale }: { post: OpportunitySummary; appName: string; locale: string }) {
  return (
    <li className="flex flex-col rounded-2xl border border-primary/15 bg-white p-5 shadow-sm">
      <h3 className="text-lg font-bold leading-snug">
        <Link to={`/app/opportunities/${post.id}`} className="text-ink no-underline hover:text-primary hover:underline">
          {post.title}
        </Link>
      </h3>
      {post.organization ? <p className="text-muted">{post.organization}</p> : null}
      <p className="mt-2 font-semibold text-primary">{contributionText(post.minContributionCents, post.currency, appName, locale)}</p>
      <p className="mt-1 text-sm text-muted">
        {post.applicationDeadline ? (
          <>
            Apply by <LocalDateTime iso={post.applicationDeadline} serverLocale={locale} />
          </>
        ) : (
          "No deadline"
        )}
      </p>
      {post.tags.length ? (
        <ul className="mt-3 flex flex-wrap gap-1.5" aria-label="Tags">
          {post.tags.map((tag) => (
            <li key={tag} className="rounded-full bg-secondary/60 px-2.5 py-0.5 text-sm">
              {tag}
            </li>
          ))}
        </ul>
      ) : null}
      <div className="mt-auto flex items-center justify-between pt-4">
        <HeartButton postId={post.id} liked={post.liked} totalHearts={post.totalHearts} title={post.title} />
        <Link to={`/app/opportunities/${post.id}`} className="text-sm font-semibold" aria-label={`Details of “${post.title}”`}>
          Details
        </Link>
      </div>
    </li>
  );
}
