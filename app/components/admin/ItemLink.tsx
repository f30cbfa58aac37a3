import type { ReportTargetType } from "#isomorphic/report-reasons";

/** A reported or removed item as the back office names it, linked to where the public sees it. */
export function ItemLink({ item, bioOrigin }: { item: { type: ReportTargetType; title: string; address: string }; bioOrigin: string }) {
  const href = item.type === "bio_page" ? `${bioOrigin}/${item.address}` : `/app/opportunities/${item.address}`;
  return (
    <span>
      <span className="text-xs font-semibold uppercase tracking-wide text-muted">{item.type === "bio_page" ? "Bio page" : "Opportunity"}</span>{" "}
      <a href={href}>{item.title}</a>
      {item.type === "bio_page" ? <span className="text-sm text-muted">{` /${item.address}`}</span> : null}
    </span>
  );
}

/** "3 days" / "5 hours" / "12 minutes": how long something has waited. */
export function ageText(fromIso: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.floor((now - new Date(fromIso).getTime()) / 60_000));
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? "" : "s"}`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} hour${hours === 1 ? "" : "s"}`;
  const days = Math.floor(hours / 24);
  return `${days} days`;
}
