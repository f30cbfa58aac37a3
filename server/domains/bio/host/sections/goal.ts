import { formatMoney } from "#isomorphic/format";
import type { PublicBioPage } from "#server/domains/bio/public-page";
import { escapeHtml } from "./escape";

/**
 * The goal card's look, in the page's theme colours (the bio host's CSS
 * contract): an outline in the text colour on the page background, so it
 * does not read as a tappable link card; the bar is drawn in the text colour
 * too. A native <progress> needs no inline style (the CSP allows none) and is
 * announced as a progress bar.
 */
export const GOAL_STYLE = [
  ".g{margin:2rem 0 0;padding:1rem 1.25rem;border:2px solid var(--fg);border-radius:1rem;color:var(--fg)}",
  ".g h2{margin:0;font-size:1.1rem;text-align:left;overflow-wrap:anywhere}",
  ".g progress{display:block;width:100%;height:1rem;margin:.6rem 0 .4rem;-webkit-appearance:none;appearance:none;border:2px solid currentColor;border-radius:1rem;background:none;overflow:hidden}",
  ".g progress::-webkit-progress-bar{background:none}",
  ".g progress::-webkit-progress-value{background:currentColor}",
  ".g progress::-moz-progress-bar{background:currentColor}",
  ".g p{margin:0}",
].join("");

/** "$120 of $500 raised · 24%": the real figures, even past the target (the bar stops at full). */
export function goalText(goal: NonNullable<PublicBioPage["goal"]>): string {
  return `${formatMoney(goal.raised, goal.currency)} of ${formatMoney(goal.target, goal.currency)} raised · ${goal.percent}%`;
}

/** The page's goal bar, when it has a goal. */
export function goalSection(page: PublicBioPage): string {
  const goal = page.goal;
  if (!goal) return "";
  return (
    `<section class="g" aria-labelledby="g"><h2 id="g">${escapeHtml(goal.title)}</h2>` +
    `<progress max="100" value="${goal.barPercent}" aria-labelledby="g" aria-describedby="gt">${goal.barPercent}%</progress>` +
    `<p id="gt">${escapeHtml(goalText(goal))}</p></section>`
  );
}
