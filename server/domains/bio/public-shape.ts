import type { LinkType } from "#server/platform/db/schema";
import { linkRowsOf, type BioPageFormInput } from "./form";
import { isShown } from "./links";
import type { EditableBioPage, OwnBioPage } from "./pages";

/**
 * A bio page as programs read and change it (the `/api/v1` shape). Writes become the editor
 * form's input, laid over the stored page, so they pass the very checks the editor does.
 */
export type PublicBioLink = { type: LinkType; url: string; title: string | null; enabled: boolean };

export type PublicBioPageSummary = { id: string; customEnding: string; name: string; createdAt: string; updatedAt: string; views: number };

export type PublicBioPage = {
  id: string;
  customEnding: string;
  name: string;
  blurb: string;
  links: PublicBioLink[];
  sponsorships: string[];
  updatedAt: string;
};

/** What a write may change; absent fields keep their stored value. `links` and `sponsorships` replace the whole list. */
export type BioPageWrite = {
  name?: string;
  blurb?: string;
  links?: { type: string; url: string; title?: string; enabled?: boolean }[];
  sponsorships?: string[];
};

export function publicBioPageSummary(page: OwnBioPage): PublicBioPageSummary {
  return { id: page.id, customEnding: page.customEnding, name: page.name, createdAt: page.created.toISOString(), updatedAt: page.updatedAt.toISOString(), views: page.views };
}

export function publicBioPage(page: EditableBioPage): PublicBioPage {
  return {
    id: page.id,
    customEnding: page.customEnding,
    name: page.name,
    blurb: page.blurb,
    links: page.links.map((link) => ({ type: link.type, url: link.url, title: link.title ?? null, enabled: isShown(link) })),
    sponsorships: page.sponsorships,
    updatedAt: page.updatedAt.toISOString(),
  };
}

/** The editor form's input for a write over `stored`: the ending stays the stored one (it is permanent). */
export function bioFormInputOf(stored: EditableBioPage, write: BioPageWrite): BioPageFormInput {
  return {
    name: write.name ?? stored.name,
    customEnding: stored.customEnding,
    blurb: write.blurb ?? stored.blurb,
    links: write.links ?? linkRowsOf(stored.links),
    sponsorships: write.sponsorships ?? stored.sponsorships,
  };
}
