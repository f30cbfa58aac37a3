import { ListLink } from "~/components/ListLink";
import type { OpportunitySummary } from "../../../server/opportunities/list";
import { contributionText } from "./ContributionText";
import { HeartButton } from "./HeartButton";
import { LocalDateTime } from "./LocalDateTime";

/** One opportunity in a list. Styled by `.opportunity-card` in app.css: a list page prints 20. */
export function OpportunityCard({ post, appName, locale }: { post: OpportunitySummary; appName: string; locale: string }) {
  return (
    <li className="opportunity-card">
      <h3>
        <ListLink to={`/app/opportunities/${post.id}`}>{post.title}</ListLink>
      </h3>
      {post.organization ? <p className="organization">{post.organization}</p> : null}
      <p className="contribution">{contributionText(post.minContributionCents, post.currency, appName, locale)}</p>
      <p className="deadline">
        {post.applicationDeadline ? (
          <>
            Apply by <LocalDateTime iso={post.applicationDeadline} serverLocale={locale} />
          </>
        ) : (
          "No deadline"
        )}
      </p>
      {post.tags.length ? (
        <ul className="tags" aria-label="Tags">
          {post.tags.map((tag) => (
            <li key={tag}>{tag}</li>
          ))}
        </ul>
      ) : null}
      <HeartButton postId={post.id} liked={post.liked} totalHearts={post.totalHearts} title={post.title} />
    </li>
  );
}
