import { dateTimeFormat, formatMoney } from "#isomorphic/format";
import type { PublicBioPage } from "#server/domains/bio/public-page";
import type { WallEntry, WallTier } from "#server/domains/bio/wall";
import { escapeHtml } from "./escape";

/** The wall's cards: outlined in the text colour on the page background (the bio host's CSS contract), unlike the filled link cards. */
export const WALL_STYLE = [
  ".w li{padding:.75rem 1rem;border:2px solid var(--fg);border-radius:1rem;color:var(--fg);overflow-wrap:anywhere}",
  ".w b{margin-right:.5rem}",
  ".w p{margin:.25rem 0 0;white-space:pre-line}",
  ".w small{display:block;margin-top:.25rem;font-size:.85rem}",
  "#w+p{text-align:center}",
].join("");

/** A message on the wall is cut here: the page stays light with ten long ones. */
export const WALL_MESSAGE_CHARS = 280;

/** The message's first `WALL_MESSAGE_CHARS` characters (whole code points), newlines kept. */
export function wallMessage(text: string): string {
  const chars = [...text.replace(/\r\n?/g, "\n").trim()];
  return chars.length <= WALL_MESSAGE_CHARS ? chars.join("") : `${chars.slice(0, WALL_MESSAGE_CHARS - 1).join("").trimEnd()}…`;
}

// The page is kept as rendered bytes for everyone, so a date, not "2 hours ago", which would go stale.
const DAY = dateTimeFormat("en-US", "longDateUtc");

function entryHtml(entry: WallEntry): string {
  const when = `<small><time datetime="${entry.at.toISOString()}">${DAY.format(entry.at)}</time></small>`;
  if (entry.private) return `<li><b>A private supporter</b>${when}</li>`;
  const amount = entry.amount !== null ? `<span>${escapeHtml(formatMoney(entry.amount, entry.currency))}</span>` : "";
  const message = entry.message ? `<p>${escapeHtml(wallMessage(entry.message))}</p>` : "";
  return `<li><b>${escapeHtml(entry.name ?? "Someone")}</b>${amount}${message}${when}</li>`;
}

function othersText(tier: WallTier): string {
  if (tier.others === 0) return "";
  const count = `${tier.others} ${tier.others === 1 ? "member" : "members"}`;
  return tier.names.length > 0 ? `, and ${tier.others} more` : count;
}

/** One line per tier: "Gold: Maya, Sam, and 2 more". */
function membersHtml(tiers: readonly WallTier[]): string {
  const items = tiers.map((tier) => `<li><b>${escapeHtml(tier.tierName)}</b>${escapeHtml(tier.names.join(", ") + othersText(tier))}</li>`);
  return `<h3>Members</h3><ul class="w">${items.join("")}</ul>`;
}

/** The supporter wall, when the owner turned it on: members by tier, then supports newest first, or a line inviting the first one. */
export function wallSection(page: PublicBioPage): string {
  if (!page.wall) return "";
  const members = page.wallMembers && page.wallMembers.length > 0 ? membersHtml(page.wallMembers) : "";
  const supports = page.wall.length > 0 ? `<ul class="w">${page.wall.map(entryHtml).join("")}</ul>` : "";
  const body = members || supports ? `${members}${members && supports ? "<h3>Tips and sponsorships</h3>" : ""}${supports}` : `<p>No supporters yet${page.takesPayments ? ": be the first." : "."}</p>`;
  return `<section aria-labelledby="w"><h2 id="w">Supporters</h2>${body}</section>`;
}
