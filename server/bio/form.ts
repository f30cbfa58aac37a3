import type { BioPageLink } from "#server/db/schema";
import { fieldRefusal, type FieldRefusal } from "#server/errors";
import { ENDING_FORMAT, ENDING_FORMAT_MESSAGE, ENDING_TAKEN_MESSAGE, isReservedEnding } from "./endings";
import { LINK_LABELS, isLinkType, linkUrlProblem } from "./links";

/** SPEC §9. */
export const MAX_LINKS = 10;
export const MAX_SPONSORSHIPS = 10;

const UNDER_100 = "Must be under 100 characters";
const UNDER_1000 = "Must be under 1000 characters";
const chars = (value: string) => [...value].length;

/** The bio page form as typed: links as rows of (type, url), sponsorships as post ids. */
export type BioPageFormInput = {
  name: string;
  customEnding: string;
  blurb: string;
  links: { type: string; url: string }[];
  sponsorships: string[];
};

/**
 * Messages by field: `name`, `customEnding`, `blurb`, `links` (the list as a
 * whole), `links.<row>` (one row's address or type) and `sponsorships`.
 */
export type BioPageFieldErrors = Partial<Record<string, string>>;

export type BioPageForm = {
  name: string;
  /** Empty when the creator left it blank: the page's id decides it (SPEC §3). */
  customEnding: string;
  blurb: string;
  links: BioPageLink[];
  /** Post ids, first occurrence kept (SPEC §5: a post already chosen is ignored). */
  sponsorships: string[];
};

export function formDataToBioInput(form: FormData): BioPageFormInput {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const strings = (name: string) => form.getAll(name).map((value) => (typeof value === "string" ? value : ""));
  const types = strings("linkType");
  const urls = strings("linkUrl");
  const rows = Math.max(types.length, urls.length);
  return {
    name: text("name"),
    customEnding: text("customEnding"),
    blurb: text("blurb"),
    links: Array.from({ length: rows }, (_, i) => ({ type: types[i] ?? "", url: urls[i] ?? "" })),
    sponsorships: strings("sponsorship"),
  };
}

/**
 * Checks every field and returns all messages at once (SPEC §5's texts).
 * Rows with no address are empty rows of the form, not links. Whether the
 * ending is free and the sponsorships are the owner's is for the database
 * (server/bio/pages.ts).
 */
export function parseBioPageForm(input: BioPageFormInput): { kind: "SUCCESS"; form: BioPageForm } | FieldRefusal<BioPageFieldErrors> {
  const errors: BioPageFieldErrors = {};
  const name = input.name.trim();
  if (name === "") errors.name = "Required";
  else if (chars(name) >= 100) errors.name = UNDER_100;

  const customEnding = input.customEnding.trim();
  if (customEnding !== "") {
    if (!ENDING_FORMAT.test(customEnding)) errors.customEnding = ENDING_FORMAT_MESSAGE;
    else if (chars(customEnding) >= 100) errors.customEnding = UNDER_100;
    else if (isReservedEnding(customEnding)) errors.customEnding = ENDING_TAKEN_MESSAGE;
  }

  const blurb = input.blurb.trim();
  if (chars(blurb) >= 1000) errors.blurb = UNDER_1000;

  const links: BioPageLink[] = [];
  const seen = new Set<string>();
  input.links.forEach((row, index) => {
    const url = row.url.trim();
    const type = row.type.trim();
    if (url === "" && (type === "" || isLinkType(type))) return;
    if (!isLinkType(type)) {
      errors[`links.${index}`] = type === "" ? "Choose the type of this link" : "Unknown link type";
      return;
    }
    if (seen.has(type)) {
      errors[`links.${index}`] = `You already have a ${LINK_LABELS[type]} link: one link per type`;
      return;
    }
    seen.add(type);
    const problem = chars(url) >= 1000 ? UNDER_1000 : linkUrlProblem(type, url);
    if (problem) errors[`links.${index}`] = problem;
    else links.push({ type, url });
  });
  if (seen.size > MAX_LINKS) errors.links = `You can add at most ${MAX_LINKS} links`;

  const sponsorships = [...new Set(input.sponsorships.map((id) => id.trim()).filter(Boolean))];
  if (sponsorships.length > MAX_SPONSORSHIPS) errors.sponsorships = `You can offer at most ${MAX_SPONSORSHIPS} sponsorship options`;

  if (Object.keys(errors).length > 0) return fieldRefusal(errors);
  return { kind: "SUCCESS", form: { name, customEnding, blurb, links, sponsorships } };
}
