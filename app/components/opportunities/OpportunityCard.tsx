import { ListLink } from "#app/components/ListLink";
import type { OpportunitySummary } from "#server/domains/opportunities/list";
import { contributionText } from "#isomorphic/contribution-text";
import { HeartButton, HeartForm } from "./HeartButton";
import { LocalDateTime } from "./LocalDateTime";

type CardProps = { appName: string; locale: string };

/**
 * Opportunities as a grid of cards, with the one form their heart buttons
 * submit without JavaScript: every card list needs both, so they come together.
 */
export function OpportunityCardList({ posts, className, ...card }: CardProps & { posts: OpportunitySummary[]; className: string }) {
  return (
    <>
      <ul className={className}>
        {posts.map((post) => (
          <OpportunityCard key={post.id} post={post} {...card} />
        ))}
      </ul>
      <HeartForm />
    </>
  );
}

/** One opportunity in a list. Styled by `.opportunity-card` in app.css: a list page prints 20. */
export function OpportunityCard({ post, appName, locale }: CardProps & { post: OpportunitySummary }) {
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
            Apply by <LocalDateTime iso={post.applicationDeadline} timeZone={post.applicationDeadlineTimeZone} serverLocale={locale} />
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
