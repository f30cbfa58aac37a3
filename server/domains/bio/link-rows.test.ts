import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PublicBioPage } from "#server/domains/bio/public-page";
import { linksSection, socialsSection } from "#server/domains/bio/host/sections/links";
import { formDataToBioInput, linkRowsAfter, linkRowsOf, parseBioPageForm, type BioPageFormInput, type LinkRowInput } from "./form";
import { LINK_LABELS, LINK_TYPES, SOCIAL_TYPES, linkTitle, linkUrlProblem, type LinkType } from "./links";

const blank: BioPageFormInput = { name: "Maya", customEnding: "", blurb: "", links: [], sponsorships: [] };

/** An address each type accepts. */
function urlFor(type: LinkType): string {
  const hosts: Partial<Record<LinkType, string>> = {
    amazon: "amazon.com", twitter: "x.com", twitch: "twitch.tv", bluesky: "bsky.app", discord: "discord.gg", threads: "threads.net", whatsapp: "wa.me",
  };
  return `https://www.${hosts[type] ?? `${type}.com`}/maya`;
}

/** The form as a browser sends it: each row's fields in order, its key, and its switch only when on. */
function submitted(rows: { type: string; url: string; title: string; enabled: boolean }[], keys = rows.map((_, i) => String(i * 7 + 3))): FormData {
  const form = new FormData();
  form.append("name", "Maya");
  rows.forEach((row, i) => {
    form.append("linkKey", keys[i]!);
    form.append("linkType", row.type);
    form.append("linkTitle", row.title);
    form.append("linkUrl", row.url);
    if (row.enabled) form.append("linkOn", keys[i]!);
  });
  return form;
}

function parsed(input: BioPageFormInput) {
  const result = parseBioPageForm(input);
  if (result.kind !== "SUCCESS") throw new Error(JSON.stringify(result.fieldErrors));
  return result.form;
}

describe("link rows: order, titles and the on/off switch", () => {
  it("keeps the submitted order, trims titles, and stores only what differs from a plain link", () => {
    const form = submitted([
      { type: "website", url: "https://maya.example", title: "  My shop  ", enabled: true },
      { type: "instagram", url: "https://instagram.com/maya", title: "", enabled: false },
      { type: "youtube", url: "https://youtube.com/@maya", title: "Watch me", enabled: true },
    ]);
    expect(parsed(formDataToBioInput(form)).links).toEqual([
      { type: "website", url: "https://maya.example", title: "My shop" },
      { type: "instagram", url: "https://instagram.com/maya", enabled: false },
      { type: "youtube", url: "https://youtube.com/@maya", title: "Watch me" },
    ]);
  });

  it("matches each switch to its own row by key, whichever rows are off", () => {
    // Keys out of order and not positions (rows dragged about in the browser): only the keys decide.
    const rows = ["website", "store", "music", "podcast"].map((type, i) => ({ type, url: `https://maya.example/${type}`, title: "", enabled: i % 2 === 1 }));
    const form = submitted(rows, ["9", "2", "14", "0"]);
    expect(formDataToBioInput(form).links.map((row) => row.enabled)).toEqual([false, true, false, true]);
  });

  it("refuses a title of 100 characters or more with SPEC's message, on the row's title", () => {
    const row = { type: "website", url: "https://maya.example" };
    expect(parseBioPageForm({ ...blank, links: [{ ...row, title: "t".repeat(99) }] })).toMatchObject({ kind: "SUCCESS" });
    expect(parseBioPageForm({ ...blank, links: [{ ...row, title: "t".repeat(100) }] })).toMatchObject({
      kind: "ERROR",
      fieldErrors: { "links.0.title": "Must be under 100 characters" },
    });
  });

  it("asks for the address of a titled row instead of dropping it", () => {
    expect(parseBioPageForm({ ...blank, links: [{ type: "website", url: "", title: "My shop" }] })).toMatchObject({ fieldErrors: { "links.0": "Required" } });
    // A row with nothing typed is still just an empty row.
    expect(parseBioPageForm({ ...blank, links: [{ type: "website", url: " ", title: " ", enabled: false }] })).toMatchObject({ kind: "SUCCESS", form: { links: [] } });
  });

  it("counts links switched off toward the ten, and keeps one link per type", () => {
    const eleven = LINK_TYPES.slice(0, 11).map((type) => ({ type, url: urlFor(type), enabled: false }));
    expect(parseBioPageForm({ ...blank, links: eleven })).toMatchObject({ fieldErrors: { links: "You can add at most 10 links" } });
    const twice = [{ type: "website", url: "https://a.example" }, { type: "website", url: "https://b.example", enabled: false }];
    expect(parseBioPageForm({ ...blank, links: twice })).toMatchObject({ fieldErrors: { "links.1": "You already have a Website link: one link per type" } });
  });

  it("gives every type a label, and the new networks their domains in SPEC's message", () => {
    for (const type of LINK_TYPES) {
      expect(LINK_LABELS[type]).toBeTruthy();
      expect(linkUrlProblem(type, urlFor(type)), type).toBeNull();
    }
    expect(linkUrlProblem("github", "https://gitlab.com/maya")).toBe("URL must start with either http:// or https:// and be on github.com");
    expect(linkUrlProblem("newsletter", "https://maya.substack.com")).toBeNull();
    expect(linkTitle({ type: "twitter", title: "  " })).toBe("X (Twitter)");
  });

  it("round-trips any order of any rows: saved as sent, read back into the same rows", () => {
    const row = fc.record({ type: fc.constantFrom(...LINK_TYPES), title: fc.string({ maxLength: 20 }).map((t) => t.trim()), enabled: fc.boolean() });
    const rows = fc.uniqueArray(row, { selector: (r) => r.type, minLength: 0, maxLength: 10 }).chain((list) => fc.shuffledSubarray(list, { minLength: list.length, maxLength: list.length }));
    fc.assert(
      fc.property(rows, (list) => {
        const typed = list.map((r) => ({ ...r, url: urlFor(r.type) }));
        const links = parsed(formDataToBioInput(submitted(typed))).links;
        expect(links.map((link) => link.type)).toEqual(list.map((r) => r.type));
        expect(linkRowsOf(links)).toEqual(typed);
      }),
    );
  });
});

describe("the rows' own buttons (no JavaScript)", () => {
  const rows: LinkRowInput[] = ["a", "b", "c"].map((type) => ({ type, url: "", title: "", enabled: true }));
  const types = (list: LinkRowInput[] | null) => list?.map((row) => row.type);

  it("moves a row up or down one place, and nowhere past the ends", () => {
    expect(types(linkRowsAfter("move-link:2:up", rows))).toEqual(["a", "c", "b"]);
    expect(types(linkRowsAfter("move-link:0:down", rows))).toEqual(["b", "a", "c"]);
    expect(types(linkRowsAfter("move-link:0:up", rows))).toEqual(["a", "b", "c"]);
    expect(types(linkRowsAfter("move-link:2:down", rows))).toEqual(["a", "b", "c"]);
  });

  it("changes nothing, and saves nothing, on a garbled row button", () => {
    for (const intent of ["move-link:9:up", "move-link:x:up", "move-link:1:left", "move-link:"]) expect(types(linkRowsAfter(intent, rows))).toEqual(["a", "b", "c"]);
    expect(linkRowsAfter("save", rows)).toBeNull();
    expect(linkRowsAfter("", rows)).toBeNull();
    expect(types(linkRowsAfter("remove-link:1", rows))).toEqual(["a", "c"]);
    expect(linkRowsAfter("add-link", rows)).toHaveLength(4);
  });
});

describe("the page's links", () => {
  const page = (links: PublicBioPage["links"]) => ({ customEnding: "maya", links }) as PublicBioPage;

  it("shows networks as a row of named icons and the rest as titled buttons, in order, none switched off", () => {
    const links: PublicBioPage["links"] = [
      { type: "website", url: "https://maya.example", title: "Shop <now> & \"save\"" },
      { type: "instagram", url: "https://instagram.com/maya", title: "Behind the scenes" },
      { type: "youtube", url: "https://youtube.com/@maya", enabled: false },
      { type: "linkedin", url: "https://linkedin.com/in/maya" },
      { type: "podcast", url: "https://pod.example/maya" },
    ];
    const socials = socialsSection(page(links));
    expect(socials.match(/<a [^>]*>/g)).toEqual([
      '<a href="/maya/go/instagram" rel="noopener" aria-label="Behind the scenes">',
      '<a href="/maya/go/linkedin" rel="noopener" aria-label="LinkedIn">',
    ]);
    expect(socials).toContain('<nav aria-label="Social networks">');
    // Icons are inline SVG hidden from screen readers, one per link.
    expect(socials.match(/<svg class="f" viewBox="0 0 24 24" aria-hidden="true"/g)).toHaveLength(2);
    const buttons = linksSection(page(links));
    expect(buttons.match(/href="[^"]*"/g)).toEqual(['href="/maya/go/website"', 'href="/maya/go/podcast"']);
    expect(buttons).toContain("<b>Shop &lt;now&gt; &amp; &quot;save&quot;</b>");
    expect(buttons).toContain("<b>Podcast</b>");
    expect(socials + buttons).not.toContain("youtube");
  });

  it("draws nothing for a page with no links on", () => {
    const off = page([{ type: "instagram", url: "https://instagram.com/maya", enabled: false }]);
    expect(socialsSection(off)).toBe("");
    expect(linksSection(off)).toBe("");
  });

  it("has a recognisable icon for every network", () => {
    for (const type of SOCIAL_TYPES) expect(socialsSection(page([{ type, url: urlFor(type) }])), type).toMatch(/<path (fill-rule="evenodd" )?d="M[^"]{20,}"/);
  });
});
