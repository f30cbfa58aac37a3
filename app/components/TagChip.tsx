import type { MouseEventHandler } from "react";
import { Link } from "react-router";

type Props = {
  tag: string;
  /** Chosen: filled, and named so for screen readers (`selectedNote`, read after the tag). */
  active: boolean;
  selectedNote: string;
  /** No more tags can be chosen: shown, but not a link. */
  disabled: boolean;
  /** Where choosing (or, when active, dropping) the tag leads. */
  to: string;
  onClick?: MouseEventHandler<HTMLAnchorElement>;
};

/** One tag of a tag filter (opportunities, the sponsor directory): a link that adds or drops it, as a list item. */
export function TagChip({ tag, active, selectedNote, disabled, to, onClick }: Props) {
  if (disabled) {
    return (
      <li>
        <span aria-disabled="true" className="inline-block rounded-full border border-ink/10 px-3 py-1 text-sm text-muted">
          {tag}
        </span>
      </li>
    );
  }
  return (
    <li>
      <Link
        to={to}
        onClick={onClick}
        className={`inline-block rounded-full border px-3 py-1 text-sm no-underline ${active ? "border-primary bg-primary text-white" : "border-ink/20 text-ink hover:border-primary"}`}
      >
        {tag}
        {active ? <span className="sr-only">{selectedNote}</span> : null}
      </Link>
    </li>
  );
}
