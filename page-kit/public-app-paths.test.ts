import { describe, expect, it } from "vitest";
import { isPublicAppPath, ROBOTS_APP_RULES } from "#page-kit/public-app-paths";

/** The longest matching robots.txt rule wins (RFC 9309 §2.2.2), Allow on a tie. */
function robotsAllow(path: string): boolean {
  const rules = ROBOTS_APP_RULES.map((line) => {
    const [verb, pattern] = line.split(": ") as [string, string];
    return { allow: verb === "Allow", regex: new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}`), length: pattern.length };
  });
  const matches = rules.filter((rule) => rule.regex.test(path)).sort((a, b) => b.length - a.length || Number(b.allow) - Number(a.allow));
  return matches[0]?.allow ?? true;
}

describe("public /app pages (SPEC §2.1)", () => {
  it("opens the sponsor directory's guest pages and the preview sample to search engines", () => {
    for (const path of ["/app/sponsors", "/app/sponsors/previews", "/app/profiles", "/app/opportunities", "/app/opportunities/1_abc"]) {
      expect(isPublicAppPath(path), path).toBe(true);
      expect(robotsAllow(path), path).toBe(true);
    }
  });

  it("keeps the Pro and signed-in pages beside them closed", () => {
    for (const path of ["/app/sponsors/recent", "/app/sponsors/burrowlight_vpn", "/app/opportunities/new", "/app/account"]) {
      expect(isPublicAppPath(path), path).toBe(false);
    }
    for (const path of ["/app/sponsors/recent", "/app/sponsors/burrowlight_vpn", "/app/opportunities/new"]) expect(robotsAllow(path), path).toBe(false);
  });
});
