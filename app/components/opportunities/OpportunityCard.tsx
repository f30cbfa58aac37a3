import { Link } from "react-router";
import type { OpportunitySummary } from "../../../server/opportunities/list";
import { contributionText } from "./ContributionText";
import { HeartButton } from "./HeartButton";
import { LocalDateTime } from "./LocalDateTime";

export function OpportunityCard({ post, appName, locale }: { post: OpportunitySummary; appName: string; locale: string }) {
  return (
    <li className="opportunity-card">
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
            <li key={tag} className="tag-chip">
              {tag}
            </li>
          ))}
        </ul>
      ) : null}
      <div className="mt-auto flex items-center justify-between pt-4">
        <HeartButton postId={post.id} liked={post.liked} totalHearts={post.totalHearts} title={post.title} />
      </div>
    </li>
  );
}
