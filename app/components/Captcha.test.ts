import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Captcha } from "./Captcha";

describe("Captcha (server render)", () => {
  it("renders the ALTCHA widget with its challenge URL, field name and auto-solve, in a labelled group", () => {
    const html = renderToString(createElement(Captcha, { provider: "altcha", siteKey: null }));
    expect(html).toContain('<div role="group" aria-label="Spam check">');
    expect(html).toMatch(/<altcha-widget challenge="\/api\/captcha\/challenge" name="captcha" auto="onsubmit"><\/altcha-widget>/);
    expect(html).toContain("<noscript>");
  });

  it("renders an empty captcha field and no third-party script for reCAPTCHA and Turnstile", () => {
    for (const provider of ["recaptcha", "turnstile"] as const) {
      const html = renderToString(createElement(Captcha, { provider, siteKey: "site-key" }));
      expect(html).toContain('<input type="hidden" name="captcha" value=""/>');
      expect(html).not.toContain("<script");
      expect(html).not.toContain("altcha-widget");
    }
  });
});
