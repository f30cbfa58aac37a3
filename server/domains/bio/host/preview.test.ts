import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { bioPages, profiles, user } from "#server/platform/db/schema";
import { parseBioPageForm } from "#server/domains/bio/form";
import { createBioPage } from "#server/domains/bio/pages";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { previewOwnPage, PREVIEW_PATH } from "./preview";
import { bioCspFor } from "./style";

const site = { bioOrigin: "http://bio.localhost:3000", publicOrigin: "http://localhost:3000", appName: "Sponsorgrid" };

const edits = (fields: [string, string][]) => {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  return form;
};

let people = 0;
describe.each(ENGINES)("the editor's preview on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;
  let owner: { uid: string };
  let pageId = "";

  beforeAll(async () => {
    const uid = `preview-person-${++people}-${engine}`;
    await db().insert(user).values({ id: uid, name: uid, email: `${uid}@preview.example`, emailVerified: true });
    await db().insert(profiles).values({ uid, name: uid });
    owner = { uid };
    const form = parseBioPageForm({ name: "Saved Name", customEnding: "", blurb: "Saved about.", links: [{ type: "website", url: "https://saved.example" }], sponsorships: [] });
    if (form.kind !== "SUCCESS") throw new Error("bad form");
    const created = await createBioPage(db(), owner, form.form);
    if (created.kind !== "SUCCESS") throw new Error(created.message);
    pageId = created.id;
  });

  it("draws the saved page, with the host's no-script policy framed only by the app, as a header and in the document", async () => {
    const preview = await previewOwnPage(db(), owner, pageId, site);
    if (preview.kind !== "SUCCESS") throw new Error(preview.message);
    expect(preview.html).toContain("<h1>Saved Name</h1>");
    expect(preview.html).toContain("saved.example");
    expect(preview.csp).toBe(bioCspFor(preview.html, "'self'"));
    expect(preview.csp).toMatch(/frame-ancestors 'self'/);
    expect(preview.csp).not.toMatch(/script-src/);
    const meta = /<head><meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(preview.html)![1]!;
    expect(meta).toBe(preview.csp.replace(" frame-ancestors 'self';", ""));
    expect(PREVIEW_PATH.test(`/app/account/bizbio/${pageId}/preview`)).toBe(true);
    expect(PREVIEW_PATH.test(`/app/account/bizbio/${pageId}/preview/x`)).toBe(false);
  });

  it("lays the forms' unsaved fields over the saved page, leaves out what does not pass, and saves nothing", async () => {
    const before = (await db().select().from(bioPages).where(eq(bioPages.id, pageId)))[0];
    const preview = await previewOwnPage(
      db(),
      owner,
      pageId,
      site,
      edits([
        ["name", "Typed <Name>"],
        ["blurb", "Typed about."],
        ["linkType", "youtube"], ["linkUrl", "https://youtube.com/@typed"],
        ["linkType", "twitch"], ["linkUrl", "javascript:alert(1)"],
        ["themePreset", "custom"], ["themeFont", "mono"], ["themeBackground", "#000"], ["themeText", "#111111"], ["themeButton", "nope"], ["themeButtonText", "#fff"],
      ]),
    );
    if (preview.kind !== "SUCCESS") throw new Error(preview.message);
    expect(preview.html).toContain("<h1>Typed &lt;Name&gt;</h1>");
    expect(preview.html).toContain("Typed about.");
    expect(preview.html).toContain(`/go/youtube" rel="noopener" aria-label="YouTube"`);
    expect(preview.html).not.toContain("saved.example");
    expect(preview.html).not.toContain("javascript:");
    // Low contrast shows as typed (the picker says why it can't be saved); what is not a colour keeps the saved one.
    expect(preview.html).toContain(":root{--bg:#000000;--fg:#111111;--btn:#b4fee7;--btn-fg:#ffffff;--font:ui-monospace,");
    expect((await db().select().from(bioPages).where(eq(bioPages.id, pageId)))[0]).toEqual(before);
  });

  it("keeps the saved fields a form did not send, and the saved name while the typed one is empty", async () => {
    const preview = await previewOwnPage(db(), owner, pageId, site, edits([["themePreset", "forest"], ["themeFont", "serif"]]));
    if (preview.kind !== "SUCCESS") throw new Error(preview.message);
    expect(preview.html).toContain("<h1>Saved Name</h1>");
    expect(preview.html).toContain("saved.example");
    expect(preview.html).toContain("--bg:#14532d");
    const blank = await previewOwnPage(db(), owner, pageId, site, edits([["name", "  "]]));
    expect(blank.kind === "SUCCESS" && blank.html).toContain("<h1>Saved Name</h1>");
  });

  it("is someone else's page: not found, nothing drawn", async () => {
    expect(await previewOwnPage(db(), { uid: "someone-else" }, pageId, site)).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await previewOwnPage(db(), owner, "nope", site, edits([["name", "x"]]))).toMatchObject({ kind: "ERROR", code: "not-found" });
  });
});
