import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_PREFIX_CHARS, namePrefixes, nameWords, searchTerms } from "#server/domains/sponsor-directory/names";

describe("sponsor name search terms", () => {
  it("splits names into lowercase words of letters and digits", () => {
    expect(nameWords("TunnelVPN")).toEqual(["tunnelvpn"]);
    expect(nameWords("Plinth.example")).toEqual(["plinth", "example"]);
    expect(nameWords("  Skillet Fern  skillet ")).toEqual(["skillet", "fern"]);
    expect(nameWords("Ça va 2")).toEqual(["ça", "va", "2"]);
  });

  it("finds a name by the start of any of its words, in any case", () => {
    const prefixes = new Set(namePrefixes(nameWords("Skillet Fern")));
    for (const query of ["ski", "SKILLET", "fe", "Fern", "skillet fe"]) {
      expect(searchTerms(query).every((term) => prefixes.has(term))).toBe(true);
    }
    for (const query of ["illet", "ferns", "x"]) {
      expect(searchTerms(query).every((term) => prefixes.has(term))).toBe(false);
    }
  });

  it("has no terms for a query without letters or digits", () => {
    expect(searchTerms("  %_*' ")).toEqual([]);
  });

  it("matches exactly what a word-prefix test over the name would (property)", () => {
    const word = fc.stringMatching(/^[a-zA-Z0-9]{1,30}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 4 }), word, (words, query) => {
        const name = words.join(" ");
        const stored = new Set(namePrefixes(nameWords(name)));
        const cut = query.toLowerCase().slice(0, MAX_PREFIX_CHARS);
        const expected = nameWords(name).some((w) => w.slice(0, MAX_PREFIX_CHARS).startsWith(cut));
        expect(searchTerms(query).every((term) => stored.has(term))).toBe(expected);
      }),
    );
  });
});
