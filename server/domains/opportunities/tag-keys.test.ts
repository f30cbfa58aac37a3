import { describe, expect, it } from "vitest";
import { coveringKeys } from "./tag-keys";

describe("coveringKeys", () => {
  it("covers two tags with one sorted pair", () => {
    expect(coveringKeys(["b", "a"], 2)).toEqual(["a|b"]);
    expect(coveringKeys(["b", "a", "b"], 2)).toEqual(["a|b"]);
  });

  it("covers 3 to 6 tags with sorted triples, filling a short last group with the first tags", () => {
    expect(coveringKeys(["c", "b", "a"], 3)).toEqual(["a|b|c"]);
    expect(coveringKeys(["d", "c", "b", "a"], 3)).toEqual(["a|b|c", "a|b|d"]);
    expect(coveringKeys(["e", "d", "c", "b", "a"], 3)).toEqual(["a|b|c", "a|d|e"]);
    expect(coveringKeys(["f", "e", "d", "c", "b", "a"], 3)).toEqual(["a|b|c", "d|e|f"]);
  });

  it("sorts by code unit, as the database's COLLATE \"C\" keys do, not by a linguistic collation", () => {
    // en_US would put 'newsletter sponsorship' first; byte order puts the space first.
    expect(coveringKeys(["newsletter sponsorship", "new york"], 2)).toEqual(["new york|newsletter sponsorship"]);
  });

  it("refuses fewer distinct tags than a key holds", () => {
    expect(() => coveringKeys(["a", "a"], 2)).toThrow(RangeError);
  });
});
