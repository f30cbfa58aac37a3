import { describe, expect, it } from "vitest";
import { decodeTimeKeyset, encodeCursor, encodeTimeKeyset, newestFirst } from "./keyset";

describe("time keyset cursors", () => {
  it("give back the place they were made from", () => {
    const place = { micros: "1796000000123456", id: "deal_abc" };
    expect(decodeTimeKeyset(encodeTimeKeyset(place))).toEqual(place);
  });

  it("read anything else as no place, never as an error", () => {
    for (const cursor of [null, undefined, "", "not-a-cursor", "%27%3Bdrop", encodeCursor({ micros: "12.5", id: "x" }), encodeCursor({ micros: "1".repeat(18), id: "x" }), encodeCursor({ micros: "1", id: "" }), encodeCursor({ after: "x" })]) {
      expect(decodeTimeKeyset(cursor)).toBeNull();
    }
  });

  it("order newest first to the microsecond, the id breaking ties downwards", () => {
    const places = [
      { micros: "1796000000123000", id: "b" },
      { micros: "1796000000123456", id: "a" },
      { micros: "1796000000123000", id: "c" },
      { micros: "999", id: "z" },
    ];
    expect(places.sort(newestFirst).map((p) => p.id)).toEqual(["a", "c", "b", "z"]);
  });
});
