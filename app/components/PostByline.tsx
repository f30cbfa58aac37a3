import { formatIsoDate } from "#isomorphic/format";

/** "June 16, 2026 · Sponsorgrid Team" under a blog post's title. */
export function PostByline({ date, author, className }: { date: string | null; author: string | null; className?: string }) {
  if (!date) return null;
  return (
    <p className={className}>
      <time dateTime={date}>{formatIsoDate(date)}</time>
      {author ? ` · ${author}` : null}
    </p>
  );
}
