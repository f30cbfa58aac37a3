import { describe, expect, it } from "vitest";
import { passwordResetEmail, verificationEmail } from "./messages";

const site = { appName: "Grid Test", supportEmail: "help@grid.example" };
// A token-bearing link with a query string, as better-auth builds them.
const url = "https://grid.example/api/auth/verify?token=a.b-c_d&callbackURL=%2Fapp";
const escapedUrl = url.replace("&", "&amp;");

describe.each([
  { builder: verificationEmail, subject: "Verify your email for Grid Test", kind: "verify-email", button: "Verify email" },
  { builder: passwordResetEmail, subject: "Reset your Grid Test password", kind: "reset-password", button: "Choose a new password" },
])("$kind email", ({ builder, subject, kind, button }) => {
  it("carries the subject, the link in both bodies, the site and the meta", async () => {
    const mail = await builder({ to: "ada@example.com", name: "Ada", url, site });
    expect(mail).toMatchObject({ to: "ada@example.com", subject, meta: { kind, url } });
    expect(mail.html).toContain(`href="${escapedUrl}"`);
    expect(mail.html).toContain(`>${escapedUrl}</a>`); // the raw link under the button
    expect(mail.html).toContain(button);
    expect(mail.text).toContain(url);
    for (const body of [mail.html, mail.text]) {
      expect(body).toContain("Grid Test");
      expect(body).toContain("help@grid.example");
      expect(body).toContain("Hi Ada,");
      expect(body).toContain("You received this because someone used this address on Grid Test. If it wasn");
    }
    expect(mail.text).not.toMatch(/<[a-z!/]/i);
  });

  it("escapes a name that looks like markup", async () => {
    const mail = await builder({ to: "eve@example.com", name: "<b>Eve</b>", url, site });
    expect(mail.html).not.toContain("<b>Eve");
    expect(mail.html).toContain("Hi &lt;b&gt;Eve&lt;/b&gt;,");
    // Plain text is not markup: the name appears as typed.
    expect(mail.text).toContain("Hi <b>Eve</b>,");
  });

  it("greets without a name", async () => {
    const mail = await builder({ to: "ada@example.com", url, site });
    expect(mail.text).toContain("Hi,");
  });
});
