import { Link } from "react-router";

/** Previous / Next by page number (1-based); there is no count, so no "page N of M". */
export function Pager({ page, hasPrevious, hasNext, href }: { page: number; hasPrevious: boolean; hasNext: boolean; href: (page: number) => string }) {
  if (!hasPrevious && !hasNext) return null;
  return (
    <nav aria-label="Pages" className="mt-8 flex items-center justify-between gap-4">
      {hasPrevious ? (
        <Link to={href(page - 1)} rel="prev">
          ← Previous
        </Link>
      ) : (
        <span />
      )}
      <span className="text-sm text-muted">Page {page}</span>
      {hasNext ? (
        <Link to={href(page + 1)} rel="next">
          Next →
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
