import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { apiKeyPepper, displayApiKey, generateApiKey, hashApiKey, parseApiKey } from "./key-format";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

describe("API key format", () => {
  it("makes keys of the documented shape that parse back to their mode", () => {
    for (const mode of ["live", "test"] as const) {
      for (let i = 0; i < 200; i++) {
        const key = generateApiKey(mode);
        expect(key).toMatch(new RegExp(`^sg_${mode}_[0-9A-Za-z]{38}$`));
        expect(parseApiKey(key)).toEqual({ mode });
      }
    }
  });

  it("makes a different key every time", () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey("live")));
    expect(keys.size).toBe(1000);
  });

  it("the checksum catches every change of one character in the random part or the checksum", () => {
    const key = fc.constantFrom("live" as const, "test" as const).map((mode) => generateApiKey(mode));
    fc.assert(
      fc.property(key, fc.nat(), fc.nat(), (original, at, by) => {
        const start = "sg_live_".length;
        const position = start + (at % (original.length - start));
        const current = original[position]!;
        // Any other character of the alphabet at that position.
        const replacement = ALPHABET.replace(current, "")[by % (ALPHABET.length - 1)]!;
        const changed = original.slice(0, position) + replacement + original.slice(position + 1);
        expect(parseApiKey(changed)).toBeNull();
      }),
      { numRuns: 5000 },
    );
  });

  it("the checksum catches every single-character change of one key, exhaustively", () => {
    const original = generateApiKey("test");
    const start = "sg_test_".length;
    for (let position = start; position < original.length; position++) {
      for (const replacement of ALPHABET) {
        if (replacement === original[position]) continue;
        expect(parseApiKey(original.slice(0, position) + replacement + original.slice(position + 1))).toBeNull();
      }
    }
  });

  it("refuses anything that is not a whole key", () => {
    const key = generateApiKey("live");
    for (const bad of ["", "sg_live_", key.slice(0, -1), `${key}a`, key.replace("sg_live_", "sg_prod_"), key.replace("sg_", "SG_"), ` ${key}`, `${key}\n`, key.replace(/.$/, "-")]) {
      expect(parseApiKey(bad), JSON.stringify(bad)).toBeNull();
    }
    fc.assert(fc.property(fc.string(), (text) => parseApiKey(text) === null || /^sg_(live|test)_[0-9A-Za-z]{38}$/.test(text)));
  });

  it("shows keys in the list as the prefix, four characters, an ellipsis and the last four", () => {
    const key = "sg_test_AbCdefghijklmnopqrstuvwxyz0123456wxyz";
    expect(displayApiKey(key)).toBe("sg_test_AbCd…wxyz");
    const live = generateApiKey("live");
    expect(displayApiKey(live)).toBe(`${live.slice(0, 12)}…${live.slice(-4)}`);
    expect(displayApiKey(live)).toMatch(/^sg_live_[0-9A-Za-z]{4}…[0-9A-Za-z]{4}$/);
  });

  it("hashes under a pepper derived from the session secret: same key, same hash; another secret, another hash", () => {
    const key = generateApiKey("live");
    const pepper = apiKeyPepper("a".repeat(32));
    expect(pepper).not.toBe("a".repeat(32));
    expect(hashApiKey(key, pepper)).toBe(hashApiKey(key, apiKeyPepper("a".repeat(32))));
    expect(hashApiKey(key, pepper)).not.toBe(hashApiKey(key, apiKeyPepper("b".repeat(32))));
    expect(hashApiKey(key, pepper)).not.toContain(key.slice(8));
  });
});
