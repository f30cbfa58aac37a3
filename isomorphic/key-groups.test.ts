import { describe, expect, it } from "vitest";
import { keyGroups } from "./key-groups";

describe("keyGroups", () => {
  it("cuts a base32 key into groups of four", () => {
    expect(keyGroups("JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP")).toEqual(["JBSW", "Y3DP", "EHPK", "3PXP", "JBSW", "Y3DP", "EHPK", "3PXP"]);
  });

  it("leaves what is left in the last group", () => {
    expect(keyGroups("ABCDEFGHIJ")).toEqual(["ABCD", "EFGH", "IJ"]);
  });

  it("joins back into the same key", () => {
    const key = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
    expect(keyGroups(key).join("")).toBe(key);
  });

  it("drops spaces and dashes already in it, and has no groups for nothing", () => {
    expect(keyGroups("abcd efgh-ijkl")).toEqual(["abcd", "efgh", "ijkl"]);
    expect(keyGroups("")).toEqual([]);
  });
});
