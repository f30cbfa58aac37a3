import { describe, expect, it } from "vitest";
import { proUpsellPath as serverPath } from "#server/domains/pro/guards";
import { proUpsellPath } from "./pro-path";

describe("the browser's Pro upsell path", () => {
  it("is the server's", () => {
    for (const returnTo of ["/app/sponsors", "/app/sponsors?tags[]=tech&name=a b", "/app/sponsors/recent?page=2"]) {
      expect(proUpsellPath(returnTo)).toBe(serverPath(returnTo));
    }
  });
});
