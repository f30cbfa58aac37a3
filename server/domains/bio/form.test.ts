import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defaultEndingFor, RESERVED_ENDINGS } from "./endings";
import { formDataToBioInput, parseBioPageForm, type BioPageFormInput } from "./form";
import { httpUrl, LINK_TYPES, linkUrlProblem } from "./links";

const blank: BioPageFormInput = { name: "Maya Makes", customEnding: "", blurb: "", links: [], sponsorships: [] };
const errorsOf = (overrides: Partial<BioPageFormInput>) => {
  const result = parseBioPageForm({ ...blank, ...overrides });
  return result.kind === "ERROR" ? result.fieldErrors : {};
};
const HTTP = "URL must start with either http:// or https://";

describe("the bio page form (SPEC §5 messages)", () => {
  it("needs a name under 100 characters and an about text under 1000", () => {
    expect(errorsOf({ name: "" })).toEqual({ name: "Required" });
    expect(errorsOf({ name: "   \t " })).toEqual({ name: "Required" });
    expect(errorsOf({ name: "x".repeat(99) })).toEqual({});
    expect(errorsOf({ name: "x".repeat(100) })).toEqual({ name: "Must be under 100 characters" });
    // Characters, not UTF-16 units: 99 emoji are 99 characters.
    expect(errorsOf({ name: "🎥".repeat(99) })).toEqual({});
    expect(errorsOf({ blurb: "b".repeat(999) })).toEqual({});
    expect(errorsOf({ blurb: "b".repeat(1000) })).toEqual({ blurb: "Must be under 1000 characters" });
  });

  it("takes endings of lowercase letters, numbers and underscore, refuses reserved ones as taken", () => {
    const format = "You may only use lowercase letters, numbers, and underscore";
    for (const ending of ["Maya", "maya-makes", "maya makes", "maya.makes", "maya/x", "mayä", "../admin", "maya%20"]) {
      expect(errorsOf({ customEnding: ending }), ending).toEqual({ customEnding: format });
    }
    expect(errorsOf({ customEnding: "maya_makes_2" })).toEqual({});
    expect(errorsOf({ customEnding: "a".repeat(100) })).toEqual({ customEnding: "Must be under 100 characters" });
    for (const reserved of ["admin", "app", "api", "edit", "www"]) {
      expect(RESERVED_ENDINGS.has(reserved)).toBe(true);
      expect(errorsOf({ customEnding: reserved })).toEqual({ customEnding: "This URL is already taken" });
    }
    // Blank is allowed: the page's id decides (SPEC §3), lowercased with non-alphanumerics as underscores.
    expect(parseBioPageForm(blank)).toMatchObject({ kind: "SUCCESS", form: { customEnding: "" } });
    expect(defaultEndingFor("AbC-12_x9")).toBe("abc_12_x9");
  });

  it("checks each link: one per type, known types, http(s) on the network's domains", () => {
    const links = [
      { type: "youtube", url: "https://www.youtube.com/@maya" },
      { type: "youtube", url: "https://youtu.be/abc" },
      { type: "myspace", url: "https://myspace.com/maya" },
      { type: "", url: "https://example.com" },
      { type: "instagram", url: "https://evil.example/instagram.com" },
      { type: "patreon", url: "patreon.com/maya" },
      { type: "website", url: "ftp://maya.example" },
      { type: "twitter", url: "https://twitter.com/maya" },
      { type: "tiktok", url: "" },
    ];
    expect(errorsOf({ links })).toEqual({
      "links.1": "You already have a YouTube link: one link per type",
      "links.2": "Unknown link type",
      "links.3": "Choose the type of this link",
      "links.4": `${HTTP} and be on instagram.com`,
      "links.5": `${HTTP} and be on patreon.com`,
      "links.6": HTTP,
    });
    // An empty row (a type chosen, no address yet) is not a link and not an error.
    const ok = parseBioPageForm({ ...blank, links: [{ type: "tiktok", url: "  " }, { type: "twitch", url: " https://www.twitch.tv/maya " }] });
    expect(ok).toMatchObject({ kind: "SUCCESS", form: { links: [{ type: "twitch", url: "https://www.twitch.tv/maya" }] } });
  });

  it("names each network's domains in its message", () => {
    expect(linkUrlProblem("youtube", "https://vimeo.com/x")).toBe(`${HTTP} and be on youtube.com or youtu.be`);
    expect(linkUrlProblem("twitter", "https://mastodon.social/@x")).toBe(`${HTTP} and be on x.com or twitter.com`);
    expect(linkUrlProblem("facebook", "https://fb.example")).toBe(`${HTTP} and be on facebook.com, fb.com or fb.me`);
    expect(linkUrlProblem("twitch", "https://twitch.tv.evil.example")).toBe(`${HTTP} and be on twitch.tv`);
    expect(linkUrlProblem("amazon", "https://amazon.co.uk/shop/maya")).toBeNull();
    expect(linkUrlProblem("amazon", "https://notamazon.com/x")).toMatch(/Amazon domain/);
    expect(linkUrlProblem("youtube", "https://m.youtube.com/@maya")).toBeNull();
    expect(linkUrlProblem("store", "https://shop.maya.example/")).toBeNull();
  });

  it("refuses every non-http scheme in any casing or encoding, and whitespace tricks", () => {
    const hostile = [
      "javascript:alert(1)", "JavaScript:alert(1)", "JAVASCRIPT:alert(1)", " javascript:alert(1)", "java\tscript:alert(1)",
      "java\nscript:alert(1)", "javascript&colon;alert(1)", "%6A%61vascript:alert(1)", "&#106;avascript:alert(1)",
      "data:text/html,<script>alert(1)</script>", "DATA:text/html;base64,PHNjcmlwdD4=", "vbscript:msgbox(1)", "VbScRiPt:msgbox(1)",
      "\u0000javascript:alert(1)", "\u200bjavascript:alert(1)", "https:javascript:alert(1)", "http:/example.com", "//example.com",
      "https://", "https:// example.com", "https://exa mple.com", "https://example.com/\u0000", "https://example.com/\u2028x",
      "https://\u0085example.com",
    ];
    for (const url of hostile) {
      expect(httpUrl(url), JSON.stringify(url)).toBeNull();
      expect(errorsOf({ links: [{ type: "website", url }] }), JSON.stringify(url)).toHaveProperty("links.0");
    }
    // Whitespace around an address is not part of it: the rule refuses it raw, the form stores it trimmed.
    for (const url of ["\u00a0https://example.com", "https://example.com\t", "\ufeffhttps://example.com"]) {
      expect(httpUrl(url), JSON.stringify(url)).toBeNull();
      expect(parseBioPageForm({ ...blank, links: [{ type: "website", url }] })).toMatchObject({ form: { links: [{ url: "https://example.com" }] } });
    }
    // The form trims the address as a whole (a pasted trailing space is fine), never inside it.
    expect(parseBioPageForm({ ...blank, links: [{ type: "website", url: " https://maya.example " }] })).toMatchObject({ kind: "SUCCESS" });
    expect(httpUrl("HTTPS://Maya.Example/Path")?.hostname).toBe("maya.example");
  });

  it("allows at most 10 links and 10 sponsorships; a post chosen twice counts once", () => {
    const eleven = LINK_TYPES.slice(0, 11).map((type) => ({ type, url: linkFor(type) }));
    expect(errorsOf({ links: eleven })).toEqual({ links: "You can add at most 10 links" });
    expect(errorsOf({ links: eleven.slice(0, 10) })).toEqual({});
    const ids = Array.from({ length: 11 }, (_, i) => `1700000000_post${i}`);
    expect(errorsOf({ sponsorships: ids })).toEqual({ sponsorships: "You can offer at most 10 sponsorship options" });
    const twice = parseBioPageForm({ ...blank, sponsorships: [ids[0]!, ids[1]!, ids[0]!, ` ${ids[1]} `] });
    expect(twice).toMatchObject({ kind: "SUCCESS", form: { sponsorships: [ids[0], ids[1]] } });
  });

  it("reads rows of links from repeated fields, a missing half as blank", () => {
    const form = new FormData();
    form.append("name", "Maya");
    form.append("linkType", "youtube");
    form.append("linkUrl", "https://youtube.com/@maya");
    form.append("linkType", "twitch");
    form.append("sponsorship", "a");
    form.append("sponsorship", "b");
    expect(formDataToBioInput(form)).toEqual({
      name: "Maya",
      customEnding: "",
      blurb: "",
      // No row keys (a form from before the on/off switch): every link is on.
      links: [{ type: "youtube", url: "https://youtube.com/@maya", title: "", enabled: true }, { type: "twitch", url: "", title: "", enabled: true }],
      sponsorships: ["a", "b"],
    });
  });
});

describe("the link address rule (property)", () => {
  const scheme = fc.constantFrom("javascript", "data", "vbscript", "file", "ftp", "blob", "about", "mailto", "tel");
  const caseMix = (word: string) => fc.array(fc.boolean(), { minLength: word.length, maxLength: word.length }).map((flags) => [...word].map((c, i) => (flags[i] ? c.toUpperCase() : c)).join(""));

  it("never accepts an address whose scheme isn't http or https, however it is cased or padded", () => {
    const padding = fc.constantFrom("", " ", "\t", "\n", "\u0000", "\u00a0", "\u200b", "\ufeff", "%20");
    fc.assert(
      fc.property(scheme.chain(caseMix), padding, fc.string(), (name, pad, rest) => {
        const url = `${pad}${name}:${rest}`;
        expect(httpUrl(url)).toBeNull();
        for (const type of LINK_TYPES) expect(linkUrlProblem(type, url)).not.toBeNull();
      }),
      { numRuns: 2000 },
    );
  });

  it("accepts what it returns only as an http(s) URL with a host, and never with whitespace or controls", () => {
    fc.assert(
      fc.property(fc.oneof(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.string(), fc.string().map((s) => `https://${s}`)), (value) => {
        const url = httpUrl(value);
        if (url === null) return;
        expect(["http:", "https:"]).toContain(url.protocol);
        expect(url.hostname).not.toBe("");
        expect(value).not.toMatch(/[\s\p{Cc}]/u);
        expect(value.toLowerCase().startsWith("http://") || value.toLowerCase().startsWith("https://")).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps every network's link on its own domains, subdomains included", () => {
    const networks = { youtube: "youtube.com", instagram: "instagram.com", patreon: "patreon.com", twitch: "twitch.tv", tiktok: "tiktok.com" } as const;
    const label = fc.stringMatching(/^[a-z0-9]{1,10}$/);
    fc.assert(
      fc.property(fc.constantFrom(...(Object.keys(networks) as (keyof typeof networks)[])), label, label, (type, sub, other) => {
        expect(linkUrlProblem(type, `https://${sub}.${networks[type]}/x`)).toBeNull();
        expect(linkUrlProblem(type, `https://${networks[type]}.${other}.example/x`)).not.toBeNull();
        expect(linkUrlProblem(type, `https://${other}${networks[type]}/x`)).not.toBeNull();
      }),
    );
  });
});

function linkFor(type: (typeof LINK_TYPES)[number]): string {
  const hosts: Record<string, string> = {
    amazon: "amazon.com", facebook: "facebook.com", instagram: "instagram.com", linkedin: "linkedin.com", patreon: "patreon.com",
    pinterest: "pinterest.com", reddit: "reddit.com", store: "shop.example", tiktok: "tiktok.com", twitch: "twitch.tv",
    twitter: "x.com", website: "maya.example", youtube: "youtube.com",
  };
  return `https://${hosts[type]}/maya`;
}
