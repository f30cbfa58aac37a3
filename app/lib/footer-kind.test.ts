import { describe, expect, it } from "vitest";
import { footerKind } from "./footer-kind";

describe("footerKind", () => {
  it("gives the public site its marketing footer", () => {
    for (const path of ["/", "/support", "/blog", "/blog/a-post", "/finding-the-best-sponsorships", "/signin", "/developers/api", "/application-notes"]) {
      expect(footerKind(path), path).toBe("marketing");
    }
  });

  it("keeps it on the app's pages guests browse (SPEC §2.1)", () => {
    for (const path of ["/app/sponsors", "/app/sponsors/recent", "/app/sponsors/previews", "/app/sponsors/abc123", "/app/profiles", "/app/opportunities", "/app/opportunities/", "/app/opportunities/xyz789"]) {
      expect(footerKind(path), path).toBe("marketing");
    }
  });

  it("gives the signed-in app, the editor and the back office the one-line footer", () => {
    for (const path of [
      "/app",
      "/app/",
      "/app/account",
      "/app/account/payments",
      "/app/notifications",
      "/app/opportunities/new",
      "/app/opportunities/edit",
      "/app/opportunities/sponsor",
      "/app/opportunities/xyz789/apply",
      "/app/deals/d1",
      "/app/payments/setup",
      "/app/payments/checkout",
      "/app/admin",
      "/app/admin/accounts/u1",
      "/edit/my-page",
    ]) {
      expect(footerKind(path), path).toBe("minimal");
    }
  });
});
