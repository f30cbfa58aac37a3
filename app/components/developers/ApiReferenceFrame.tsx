import type { ReactNode } from "react";
import { Link } from "react-router";
import type { ResourceLink } from "#server/features/api/reference";

export const API_REFERENCE_PATH = "/developers/api";

type PageLink = { to: string; label: string };

/** The reference's pages in reading order: the overview, each resource, then the webhooks guide. */
function pagesOf(resources: ResourceLink[]): PageLink[] {
  return [
    { to: API_REFERENCE_PATH, label: "Overview" },
    ...resources.map((resource) => ({ to: `${API_REFERENCE_PATH}/${resource.slug}`, label: resource.tag })),
    { to: "/developers/webhooks", label: "Webhooks" },
  ];
}

function NavList({ pages, current }: { pages: PageLink[]; current: string }) {
  return (
    <ul className="space-y-1">
      {pages.map((page) => (
        <li key={page.to}>
          <Link
            to={page.to}
            aria-current={page.to === current ? "page" : undefined}
            className={`block rounded-md px-3 py-1.5 no-underline hover:bg-ink/5 ${page.to === current ? "bg-secondary/40 font-semibold text-ink" : ""}`}
          >
            {page.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/**
 * Every page of the API reference: a sidebar of its pages on a wide screen, a folded list at the top on
 * a phone (a details element: the pages ship no JavaScript), the page itself, and the pages before and
 * after it. The content column may shrink below its widest line (min-w-0), so a long line scrolls or
 * wraps inside its own box and never widens the page.
 */
export function ApiReferenceFrame({ resources, current, children }: { resources: ResourceLink[]; current: string; children: ReactNode }) {
  const pages = pagesOf(resources);
  const index = pages.findIndex((page) => page.to === current);
  const previous = index > 0 ? pages[index - 1] : null;
  const next = index >= 0 && index < pages.length - 1 ? pages[index + 1] : null;
  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:py-12 lg:grid lg:grid-cols-[13rem_minmax(0,1fr)] lg:gap-10">
      <aside className="hidden lg:block">
        <nav aria-label="API reference" className="sticky top-20 text-sm">
          <p className="px-3 pb-2 text-xs font-semibold uppercase tracking-widest text-muted">API reference</p>
          <NavList pages={pages} current={current} />
        </nav>
      </aside>
      <details className="mb-6 rounded-xl border border-ink/15 lg:hidden">
        <summary className="cursor-pointer px-4 py-3 font-semibold">API reference pages</summary>
        <nav aria-label="API reference" className="border-t border-ink/10 px-1 py-2">
          <NavList pages={pages} current={current} />
        </nav>
      </details>
      <div className="min-w-0">
        {children}
        <nav aria-label="Previous and next pages" className="mt-12 flex flex-wrap justify-between gap-4 border-t border-ink/10 pt-6">
          {previous ? (
            <Link to={previous.to} rel="prev" className="min-w-0">
              <span className="block text-sm text-muted">Previous</span>
              <span className="font-semibold">{previous.label}</span>
            </Link>
          ) : (
            <span />
          )}
          {next ? (
            <Link to={next.to} rel="next" className="min-w-0 text-right">
              <span className="block text-sm text-muted">Next</span>
              <span className="font-semibold">{next.label}</span>
            </Link>
          ) : null}
        </nav>
      </div>
    </div>
  );
}
