import { formDataToBioInput, MAX_LINKS } from "#server/domains/bio/form";
import { isLinkType, linkUrlProblem } from "#server/domains/bio/links";
import { getOwnPage } from "#server/domains/bio/pages";
import { readPublicPage, type PublicBioPage } from "#server/domains/bio/public-page";
import { THEME_FIELD_NAMES } from "#isomorphic/bio-theme";
import { formDataToThemeInput, themeFromInput } from "#server/domains/bio/theme";
import type { Db } from "#server/platform/db/client";
import type { BioPageLink } from "#server/platform/db/schema";
import { domainError, success, type DomainError, type Success } from "#server/platform/errors";
import { renderBioPage, type BioSite } from "./page-html";
import { bioCspFor } from "./style";

/**
 * The owner's page as the bio host would draw it, for the editor's phone
 * preview: the one renderer (`renderBioPage`), so the preview is the page.
 * Served on the app host, to the owner only, framed by the editor
 * (`frame-ancestors 'self'`), with the host's no-script CSP, as a header and
 * in the document itself. (The frame is not sandboxed: axe, which every
 * screen's tests run, cannot look into a frame that runs no script, and the
 * policy already lets none run.)
 *
 * `edits` are the editor's forms as they stand, unsaved: each field the
 * preview knows is laid over the saved page (a field the form did not send
 * keeps its saved value, one that does not pass its rules is left out), and
 * nothing is ever written.
 */
export type PagePreview = { html: string; csp: string };

/** The address the editor frames; app.ts lets its answer carry its own CSP (server/platform/http/security.ts). */
export const PREVIEW_PATH = /^\/app\/account\/bizbio\/[^/]+\/preview$/;

type Overlay = (page: PublicBioPage, edits: FormData) => PublicBioPage;

const typed = (edits: FormData, name: string) => {
  const value = edits.get(name);
  return typeof value === "string" ? value : null;
};

const PREVIEW_FIELDS: Overlay[] = [
  (page, edits) => {
    const name = typed(edits, "name")?.trim();
    // An empty name is not a page yet: the saved one stays until one is typed.
    return name ? { ...page, name: [...name].slice(0, 99).join("") } : page;
  },
  (page, edits) => {
    const blurb = typed(edits, "blurb");
    return blurb === null ? page : { ...page, blurb: [...blurb.trim()].slice(0, 999).join("") };
  },
  (page, edits) => {
    // The link rows come with the main form (its name field): sent with no rows, the page has no links.
    if (!edits.has("name") && !edits.has("linkType")) return page;
    const seen = new Set<string>();
    const links: BioPageLink[] = [];
    for (const row of formDataToBioInput(edits).links) {
      const type = row.type.trim();
      const url = row.url.trim();
      if (!isLinkType(type) || seen.has(type) || linkUrlProblem(type, url) !== null || links.length >= MAX_LINKS) continue;
      seen.add(type);
      links.push({ ...row, type, url });
    }
    return { ...page, links };
  },
  (page, edits) => (edits.has(THEME_FIELD_NAMES.preset) ? { ...page, theme: themeFromInput(formDataToThemeInput(edits), page.theme) } : page),
];

export async function previewOwnPage(
  db: Db,
  owner: { uid: string },
  pageId: string,
  site: BioSite,
  edits: FormData | null = null,
): Promise<Success<PagePreview> | DomainError<"not-found">> {
  const own = await getOwnPage(db, owner, pageId);
  if (own.kind === "ERROR") return domainError("not-found", own.message);
  const saved = await readPublicPage(db, own.page.customEnding);
  if (!saved) return domainError("not-found", "This page doesn't exist or was deleted.");
  const page = edits ? PREVIEW_FIELDS.reduce((shown, overlay) => overlay(shown, edits), saved) : saved;
  const drawn = renderBioPage(page, site, "preview");
  const csp = bioCspFor(drawn, "'self'");
  // The same policy inside the document: drawn into the editor's frame from `srcdoc`, it would
  // otherwise have only the editor's policy, which lets the app's scripts run (frame-ancestors has no say in a meta).
  const inDocument = csp.replace(/ frame-ancestors [^;]+;/, "");
  // Framed in the editor, the page's landmarks sit beside the editor's own main and footer: named, they stay told apart.
  const html = drawn
    .replace("<head>", `<head><meta http-equiv="Content-Security-Policy" content="${inDocument}">`)
    .replace("<main>", '<main aria-label="Your page">')
    .replace("<footer>", '<footer aria-label="Your page\'s footer">');
  return success({ html, csp });
}
