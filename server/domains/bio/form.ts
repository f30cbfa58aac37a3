import type { BioPageLink } from "#server/platform/db/schema";
import { fieldRefusal, type FieldRefusal } from "#server/platform/errors";
import { ENDING_FORMAT, ENDING_FORMAT_MESSAGE, ENDING_TAKEN_MESSAGE, isReservedEnding } from "./endings";
import { LINK_LABELS, TITLE_UNDER, isLinkType, isShown, linkUrlProblem } from "./links";

/** SPEC §9. */
export const MAX_LINKS = 10;
export const MAX_SPONSORSHIPS = 10;

const UNDER_100 = "Must be under 100 characters";
const UNDER_1000 = "Must be under 1000 characters";
const chars = (value: string) => [...value].length;

/** One link row as typed, in the form's order (the page's order); no title is the type's label, no `enabled` is on. */
export type LinkRowInput = { type: string; url: string; title?: string; enabled?: boolean };

/** The bio page form as typed: links as rows of (type, url, title, on/off), sponsorships as post ids. */
export type BioPageFormInput = {
  name: string;
  customEnding: string;
  blurb: string;
  links: LinkRowInput[];
  sponsorships: string[];
};

/** A page's stored links as the form's rows (no title: empty; no `enabled`: on). */
export function linkRowsOf(links: BioPageLink[]): LinkRowInput[] {
  return links.map((link) => ({ type: link.type, url: link.url, title: link.title ?? "", enabled: isShown(link) }));
}

/**
 * Messages by field: `name`, `customEnding`, `blurb`, `links` (the list as a
 * whole), `links.<row>` (one row's address or type), `links.<row>.title` and
 * `sponsorships`.
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
  const titles = strings("linkTitle");
  // A checkbox is sent only when ticked, so "on" can't be matched to a row by
  // position: each row sends its own key (`linkKey`), and its switch sends that
  // key as `linkOn`. A form with no keys at all (older clients) has every link on.
  const keys = strings("linkKey");
  const on = new Set(strings("linkOn"));
  const rows = Math.max(types.length, urls.length, titles.length);
  return {
    name: text("name"),
    customEnding: text("customEnding"),
    blurb: text("blurb"),
    links: Array.from({ length: rows }, (_, i) => ({
      type: types[i] ?? "",
      url: urls[i] ?? "",
      title: titles[i] ?? "",
      enabled: keys.length === 0 || (keys[i] !== undefined && on.has(keys[i]!)),
    })),
    sponsorships: strings("sponsorship"),
  };
}

/**
 * Checks every field and returns all messages at once (SPEC §5's texts).
 * Rows with no address are empty rows of the form, not links. Whether the
 * ending is free and the sponsorships are the owner's is for the database
 * (server/domains/bio/pages.ts).
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
    const title = (row.title ?? "").trim();
    if (chars(title) >= TITLE_UNDER) errors[`links.${index}.title`] = `Must be under ${TITLE_UNDER} characters`;
    if (url === "" && title === "" && (type === "" || isLinkType(type))) return;
    if (!isLinkType(type)) {
      errors[`links.${index}`] = type === "" ? "Choose the type of this link" : "Unknown link type";
      return;
    }
    if (seen.has(type)) {
      errors[`links.${index}`] = `You already have a ${LINK_LABELS[type]} link: one link per type`;
      return;
    }
    seen.add(type);
    // A titled row with no address is a link half typed, not an empty row.
    const problem = url === "" ? "Required" : chars(url) >= 1000 ? UNDER_1000 : linkUrlProblem(type, url);
    if (problem) errors[`links.${index}`] = problem;
    // Only what differs from a plain link is stored: no title is the type's label, no `enabled` is on.
    else links.push({ type, url, ...(title !== "" && { title }), ...(row.enabled === false && { enabled: false }) });
  });
  if (seen.size > MAX_LINKS) errors.links = `You can add at most ${MAX_LINKS} links`;

  const sponsorships = [...new Set(input.sponsorships.map((id) => id.trim()).filter(Boolean))];
  if (sponsorships.length > MAX_SPONSORSHIPS) errors.sponsorships = `You can offer at most ${MAX_SPONSORSHIPS} sponsorship options`;

  if (Object.keys(errors).length > 0) return fieldRefusal(errors);
  return { kind: "SUCCESS", form: { name, customEnding, blurb, links, sponsorships } };
}

/**
 * The link rows after one of the rows' own buttons, or null when `intent` is
 * not one (then the form is being saved). These buttons change only the rows
 * on the re-rendered form, never the page, so the rows work without
 * JavaScript: `add-link`, `remove-link:<row>`, `move-link:<row>:up|down`.
 */
export function linkRowsAfter(intent: string, rows: LinkRowInput[]): LinkRowInput[] | null {
  if (intent === "add-link") return rows.length < MAX_LINKS ? [...rows, { type: "", url: "", title: "", enabled: true }] : rows;
  if (intent.startsWith("remove-link:")) {
    const row = Number(intent.slice("remove-link:".length));
    return rows.filter((_, index) => index !== row);
  }
  if (!intent.startsWith("move-link:")) return null;
  // A garbled move changes nothing, and saves nothing either.
  const move = /^move-link:(\d+):(up|down)$/.exec(intent);
  if (!move) return rows;
  const from = Number(move[1]);
  const to = move[2] === "up" ? from - 1 : from + 1;
  if (from >= rows.length || to < 0 || to >= rows.length) return rows;
  return moveRow(rows, from, to);
}

/** `rows` with the row at `from` moved to `to`, the others keeping their order. */
function moveRow<T>(rows: readonly T[], from: number, to: number): T[] {
  const moved = [...rows];
  const [row] = moved.splice(from, 1);
  moved.splice(to, 0, row!);
  return moved;
}
