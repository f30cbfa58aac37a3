import type { ReactNode } from "react";
import { Link } from "react-router";
import { secondaryButton } from "#page-kit/forms";

/** Under a list cut at the back office's limit: says that only the first rows are shown (`order`: "newest", "latest"). */
export function CappedListNote({ more, shown, order }: { more: boolean; shown: number; order: string }) {
  if (!more) return null;
  return (
    <p className="mt-2 text-sm text-muted">{`Only the ${order} ${shown} are shown.`}</p>
  );
}

/** The link to a list's next page, kept with its filters (`to` is the query), shown only while there is one. */
export function NextPageLink({ to, children }: { to: string | null; children: ReactNode }) {
  if (!to) return null;
  return (
    <p className="mt-4">
      <Link to={to} className={secondaryButton}>
        {children}
      </Link>
    </p>
  );
}
