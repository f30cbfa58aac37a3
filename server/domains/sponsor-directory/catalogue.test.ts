import { describe, expect, it } from "vitest";
import sponsorTagData from "#server/tools/seed/data/sponsor-tags.json" with { type: "json" };
import sponsorData from "#server/tools/seed/data/sponsors.json" with { type: "json" };
import {
  ADDED_FROM,
  BLURB_CHARS,
  latestAddedDate,
  PREVIEW_CHARS,
  SponsorCatalogueError,
  sponsorCatalogue,
  type SponsorEntry,
} from "#server/domains/sponsor-directory/catalogue";

const entries = sponsorData as SponsorEntry[];
const tagList = sponsorTagData as string[];

/** The registrable domain, good enough for the hosts in the file ("www.shop.example.co.uk" → "example.co.uk"). */
function registrableDomain(url: string): string {
  const labels = new URL(url).hostname.split(".");
  const secondLevel = labels.at(-2) ?? "";
  const keep = labels.at(-1)!.length === 2 && ["co", "com", "org", "net", "ac"].includes(secondLevel) ? 3 : 2;
  return labels.slice(-keep).join(".");
}

function allStrings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(allStrings);
  if (value && typeof value === "object") return Object.values(value).flatMap(allStrings);
  return [];
}

describe("the sponsor directory file (server/tools/seed/data/sponsors.json)", () => {
  const { tags, rows } = sponsorCatalogue(sponsorData, sponsorTagData);

  it("validates, with at least 150 companies and a tag list of 20 to 30", () => {
    expect(rows.length).toBeGreaterThanOrEqual(150);
    expect(tags.length).toBeGreaterThanOrEqual(20);
    expect(tags.length).toBeLessThanOrEqual(30);
  });

  it("has unique slug ids and unique names", () => {
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
    expect(new Set(entries.map((e) => e.name.toLowerCase())).size).toBe(entries.length);
    for (const entry of entries) expect(entry.id).toMatch(/^[a-z0-9_]+$/);
  });

  it("uses only listed tags, 2 to 5 a company, and uses every listed tag", () => {
    const used = new Set(entries.flatMap((e) => e.tags));
    for (const entry of entries) {
      expect(entry.tags.length, entry.id).toBeGreaterThanOrEqual(2);
      expect(entry.tags.length, entry.id).toBeLessThanOrEqual(5);
      for (const tag of entry.tags) expect(tagList, `${entry.id}: ${tag}`).toContain(tag);
    }
    expect([...used].sort()).toEqual([...tagList].sort());
  });

  it("links https websites, and apply pages only on the company's own domain", () => {
    for (const entry of entries) {
      expect(new URL(entry.website).protocol, entry.id).toBe("https:");
      if (entry.details.applyUrl === null) continue;
      expect(new URL(entry.details.applyUrl).protocol, entry.id).toBe("https:");
      expect(registrableDomain(entry.details.applyUrl), entry.id).toBe(registrableDomain(entry.website));
    }
  });

  it("contains no e-mail address or phone number anywhere", () => {
    for (const entry of entries) {
      const { added: _date, ...text } = entry;
      for (const value of allStrings(text)) {
        expect(value, entry.id).not.toMatch(/[^\s@]+@[^\s@]+\.[a-z]{2,}/i);
        expect(value, entry.id).not.toMatch(/\+?\(?\d[\d\s().-]{6,}\d/);
      }
    }
  });

  it("keeps blurbs and previews within their lengths, and previews say nothing of where to apply", () => {
    for (const entry of entries) {
      expect([...entry.blurb].length, entry.id).toBeGreaterThanOrEqual(BLURB_CHARS.min);
      expect([...entry.blurb].length, entry.id).toBeLessThanOrEqual(BLURB_CHARS.max);
      expect([...entry.preview].length, entry.id).toBeGreaterThanOrEqual(PREVIEW_CHARS.min);
      expect([...entry.preview].length, entry.id).toBeLessThanOrEqual(PREVIEW_CHARS.max);
      expect(entry.preview.toLowerCase(), entry.id).not.toContain(registrableDomain(entry.website));
      expect(entry.preview, entry.id).not.toMatch(/https?:|www\.|\.(com|org|io|tv|me|co|net)\b|apply|affiliate|referral|ambassador|\bprograms?\b|sign up|contact/i);
    }
  });

  it("marks about twenty well-spread companies for the preview sample", () => {
    const sample = entries.filter((e) => e.inPreviewSample);
    expect(sample.length).toBeGreaterThanOrEqual(15);
    expect(sample.length).toBeLessThanOrEqual(25);
    expect(new Set(sample.flatMap((e) => e.tags)).size).toBeGreaterThanOrEqual(15);
  });

  it("dates every company from the directory's start to today, spread over many days", () => {
    const today = new Date().toISOString().slice(0, 10);
    for (const entry of entries) expect(entry.added >= ADDED_FROM && entry.added <= today, `${entry.id}: ${entry.added}`).toBe(true);
    expect(new Set(entries.map((e) => e.added)).size).toBeGreaterThan(entries.length / 2);
  });

  it("gives every company a public source or the sample flag, never both", () => {
    for (const entry of entries) {
      expect(entry.sample === true || typeof entry.source === "string", entry.id).toBe(true);
      expect(entry.sample === true && entry.source !== undefined, entry.id).toBe(false);
    }
  });

  it("keeps sample companies invented: reserved .example addresses and a name no other entry shares", () => {
    for (const entry of entries.filter((e) => e.sample)) {
      expect(new URL(entry.website).hostname, entry.id).toMatch(/\.example$/);
      if (entry.details.applyUrl) expect(new URL(entry.details.applyUrl).hostname, entry.id).toMatch(/\.example$/);
    }
  });

  it("gives every company its own How to apply, sponsored formats and blurb", () => {
    const distinct = (values: string[]) => new Set(values.map((v) => v.toLowerCase())).size;
    expect(distinct(entries.map((e) => e.details.apply))).toBe(entries.length);
    expect(distinct(entries.map((e) => e.blurb))).toBe(entries.length);
    expect(distinct(entries.map((e) => e.preview))).toBe(entries.length);
    expect(distinct(entries.map((e) => e.details.sponsors))).toBe(entries.length);
    // Formats come from a shared vocabulary, but a company's list is not a copy of most others'.
    const formatLists = entries.map((e) => e.details.formats.join("|"));
    expect(Math.max(...formatLists.map((list) => formatLists.filter((l) => l === list).length))).toBeLessThan(entries.length / 10);
  });

  it("maps an entry to a row with its search words, prefixes, added time and sample flag", () => {
    const entry = entries.find((e) => e.id === "burrowlight_vpn")!;
    const row = rows.find((r) => r.id === "burrowlight_vpn")!;
    expect(row.nameArray).toEqual(["burrowlight", "vpn"]);
    expect(row.namePrefixes).toEqual(expect.arrayContaining(["b", "burrow", "burrowlight", "v", "vpn"]));
    expect(row.addedAt).toEqual(new Date(`${entry.added}T12:00:00Z`));
    expect(row.sample).toBe(true);
    expect(row.details).toEqual({ ...entry.details, source: null });
  });
});

describe("sponsorCatalogue on bad input", () => {
  const good = structuredClone(entries[0]!) as SponsorEntry;
  const check = (mutate: (entry: Record<string, unknown>) => void, tagsList: unknown = sponsorTagData) => {
    const entry = structuredClone(good) as unknown as Record<string, unknown>;
    mutate(entry);
    return () => sponsorCatalogue([entry], tagsList);
  };

  it("names the entry and the field that is wrong", () => {
    expect(check((e) => (e.id = "Burrowlight VPN"))).toThrow(/entry 1 \("Burrowlight VPN"\): id: must be a slug/);
    expect(check((e) => (e.website = "http://burrowlight-vpn.example"))).toThrow(/website: must be an https:\/\/ URL/);
    expect(check((e) => (e.tags = ["vpn", "spaceships"]))).toThrow(/tag "spaceships" is not in the sponsor tag list/);
    expect(check((e) => (e.added = "2025-01-01"))).toThrow(/added: must be 2026-01-01 or later/);
    expect(check((e) => (e.blurb = "Too short."))).toThrow(/blurb: must be/);
    expect(check((e) => ((e.details as Record<string, unknown>).applyUrl = "ftp://x.example"))).toThrow(/details.applyUrl/);
    expect(check((e) => (e.contactEmail = "someone"))).toThrow(SponsorCatalogueError);
  });

  it("refuses a real company without a public source, and a sample that claims one", () => {
    const real = { ...good, sample: undefined };
    expect(() => sponsorCatalogue([real], sponsorTagData)).toThrow(/source: a real company needs a public https:\/\/ source/);
    expect(() => sponsorCatalogue([{ ...real, source: "http://press.example/facts" }], sponsorTagData)).toThrow(/source: must be an https:\/\/ URL/);
    expect(() => sponsorCatalogue([{ ...good, source: "https://press.example/facts" }], sponsorTagData)).toThrow(/source: a sample company has no source/);
    expect(check((e) => (e.sample = false))).toThrow(/sample/);
    const sourced = sponsorCatalogue([{ ...real, source: "https://press.example/facts" }], sponsorTagData).rows[0]!;
    expect(sourced).toMatchObject({ sample: false, details: { source: "https://press.example/facts" } });
  });

  it("accepts a company added today, and refuses a date still in the future everywhere", () => {
    const now = new Date("2026-11-25T09:00:00Z");
    expect(latestAddedDate(now)).toBe("2026-11-25");
    expect(latestAddedDate(new Date("2026-11-25T10:00:00Z"))).toBe("2026-11-26"); // already the 26th in UTC+14
    const today = sponsorCatalogue([{ ...good, added: "2026-11-25" }], sponsorTagData, now).rows[0]!;
    expect(today.addedAt).toEqual(new Date("2026-11-25T12:00:00Z"));
    expect(() => sponsorCatalogue([{ ...good, added: "2026-11-26" }], sponsorTagData, now)).toThrow(/added: 2026-11-26 is in the future/);
  });

  it("refuses a repeated id, name or How to apply text, and a tag list that is not a list of tags", () => {
    expect(() => sponsorCatalogue([good, good], sponsorTagData)).toThrow(/id "burrowlight_vpn" is used twice/);
    expect(() => sponsorCatalogue([good, { ...good, id: "burrowlight_two" }], sponsorTagData)).toThrow(/name "Burrowlight VPN" is used twice/);
    const copied = { ...good, id: "other_one", name: "Other One", details: { ...good.details, apply: good.details.apply.toUpperCase() } };
    expect(() => sponsorCatalogue([good, copied], sponsorTagData)).toThrow(/entry 2 \("other_one"\): details.apply repeats another company's "How to apply" text/);
    expect(() => sponsorCatalogue([good], ["VPN"])).toThrow(/Sponsor tag list/);
    expect(() => sponsorCatalogue({}, sponsorTagData)).toThrow(/must be an array/);
  });
});
