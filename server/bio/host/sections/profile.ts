import type { PublicBioPage } from "#server/bio/public-page";
import { escapeHtml } from "./escape";

/** The top of the page: the owner's face (an initial for now), the page's name and its blurb. */
export function profileSection(page: PublicBioPage): string {
  const initial = [...page.name.trim()][0]?.toLocaleUpperCase("en-US") ?? "";
  return (
    `<header><div class="i" aria-hidden="true">${escapeHtml(initial)}</div><h1>${escapeHtml(page.name)}</h1>` +
    (page.blurb.trim() ? `<p class="b">${escapeHtml(page.blurb.replace(/\r\n?/g, "\n").trim())}</p>` : "") +
    `</header>`
  );
}
