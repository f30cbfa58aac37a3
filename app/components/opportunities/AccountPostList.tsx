import { useState } from "react";
import { Link } from "react-router";
import type { OpportunitySummary } from "#server/domains/opportunities/list";
import { OpportunityCardList } from "./OpportunityCard";

type Page = { items: OpportunitySummary[]; nextCursor: string | null };

/**
 * 50 posts per load, then 'Load more'. With JavaScript the next 50 are
 * appended in place; without it the link opens the next 50.
 */
export function AccountPostList({ first, kind, emptyText, appName, locale }: { first: Page; kind: "mine" | "liked"; emptyText: string; appName: string; locale: string }) {
  const [pages, setPages] = useState<Page[]>([first]);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const items = pages.flatMap((page) => page.items);
  const next = pages[pages.length - 1]!.nextCursor;

  async function loadMore(event: React.MouseEvent) {
    if (!next) return;
    event.preventDefault();
    setLoading(true);
    setError(null);
    try {
      const response = await fetch(`/api/account-posts?kind=${kind}&after=${encodeURIComponent(next)}`);
      if (!response.ok) throw new Error(String(response.status));
      const page = (await response.json()) as Page;
      setPages((current) => [...current, page]);
    } catch {
      setError("Couldn't load more posts. Please try again.");
    } finally {
      setLoading(false);
    }
  }

  if (items.length === 0) return <p className="mt-8 rounded-2xl bg-primary/5 p-6 text-lg">{emptyText}</p>;
  return (
    <>
      <OpportunityCardList posts={items} appName={appName} locale={locale} className="mt-8 grid gap-5 sm:grid-cols-2 lg:grid-cols-3" />
      {next ? (
        <div className="mt-8 text-center">
          <Link to={`?after=${encodeURIComponent(next)}`} onClick={loadMore} className="font-semibold" aria-disabled={loading}>
            {loading ? "Loading..." : "Load more"}
          </Link>
          {error ? (
            <p role="alert" className="mt-2 text-red-700">
              {error}
            </p>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
