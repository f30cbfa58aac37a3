import { eq } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { checkContrast, DEFAULT_THEME, isWellFormedTheme, presetById, THEME_PRESETS } from "#isomorphic/bio-theme";
import { bioPages, profiles, user } from "#server/platform/db/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { parseBioPageForm } from "./form";
import { createBioPage } from "./pages";
import { readPublicPage } from "./public-page";
import { parseThemeForm, saveBioTheme, themeFromInput, type ThemeFormInput } from "./theme";

const custom = (colours: Partial<ThemeFormInput> = {}): ThemeFormInput => ({
  preset: "custom",
  font: "system",
  background: "#ffffff",
  text: "#222222",
  button: "#1d4ed8",
  buttonText: "#ffffff",
  ...colours,
});

const colour = fc.oneof(
  fc.integer({ min: 0, max: 0xffffff }).map((value) => `#${value.toString(16).padStart(6, "0")}`),
  fc.integer({ min: 0, max: 0xfff }).map((value) => value.toString(16).padStart(3, "0").toUpperCase()),
  fc.string({ maxLength: 8 }),
);

describe("reading a submitted theme", () => {
  it("takes a preset's colours whatever colours came with it, and the chosen font", () => {
    const parsed = parseThemeForm({ ...custom({ background: "#000000", text: "#000000" }), preset: "forest", font: "mono" });
    expect(parsed).toEqual({ kind: "SUCCESS", theme: { ...presetById("forest")!.theme, font: "mono" } });
  });

  it("takes custom colours in any hex spelling and stores them one way", () => {
    const parsed = parseThemeForm(custom({ background: "FFF", text: " #222 ", button: "#1D4ED8" }));
    expect(parsed).toEqual({ kind: "SUCCESS", theme: { preset: "custom", background: "#ffffff", text: "#222222", button: "#1d4ed8", buttonText: "#ffffff", font: "system" } });
  });

  it("refuses low contrast naming the pair and its ratio, on the colour to change", () => {
    const parsed = parseThemeForm(custom({ text: "#cccccc", buttonText: "#3b82f6", button: "#f8fafc" }));
    expect(parsed.kind).toBe("ERROR");
    if (parsed.kind !== "ERROR") return;
    expect(parsed.fieldErrors.text).toBe("Text and background contrast is 1.6:1; it needs at least 4.5:1 to be readable");
    expect(parsed.fieldErrors.buttonText).toBe("Button text and button contrast is 3.5:1; it needs at least 4.5:1 to be readable");
    expect(parsed.fieldErrors.button).toBe("Buttons and background contrast is 1:1; it needs at least 3:1 for buttons to stand out from the page");
  });

  it("refuses what is not a colour, an unknown preset or font, each with its own message", () => {
    const parsed = parseThemeForm({ preset: "custom", font: "papyrus", background: "", text: "red", button: "#12", buttonText: "#fff" });
    expect(parsed).toMatchObject({
      kind: "ERROR",
      code: "invalid-argument",
      fieldErrors: {
        font: "Choose one of the fonts in the list",
        background: "Background colour is required",
        text: "Text must be a colour like #1a2b3c",
        button: "Button must be a colour like #1a2b3c",
      },
    });
    expect(parseThemeForm({ ...custom(), preset: "neon" })).toMatchObject({ kind: "ERROR", fieldErrors: { preset: "Choose one of the presets, or Custom" } });
  });

  it("accepts only themes that pass every contrast rule, well formed (property)", () => {
    fc.assert(
      fc.property(colour, colour, colour, colour, fc.constantFrom("custom", ...THEME_PRESETS.map((p) => p.id)), fc.constantFrom("system", "serif", "mono", "x"), (background, text, button, buttonText, preset, font) => {
        const parsed = parseThemeForm({ preset, font, background, text, button, buttonText });
        if (parsed.kind === "ERROR") return;
        expect(isWellFormedTheme(parsed.theme)).toBe(true);
        for (const check of checkContrast(parsed.theme)) expect(check.passes, check.message).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("previews what is typed without the contrast rules, keeping the saved colour for what is not a colour", () => {
    const preview = themeFromInput(custom({ text: "#eeeeee", button: "nope" }), DEFAULT_THEME);
    expect(preview).toEqual({ preset: "custom", background: "#ffffff", text: "#eeeeee", button: DEFAULT_THEME.button, buttonText: "#ffffff", font: "system" });
    expect(themeFromInput({ ...custom(), preset: "candy", font: "zzz" }, DEFAULT_THEME)).toEqual({ ...presetById("candy")!.theme, font: "system" });
  });
});

let people = 0;
describe.each(ENGINES)("saving a page's theme on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;
  let owner: { uid: string };
  let pageId = "";
  let ending = "";

  beforeAll(async () => {
    const uid = `theme-person-${++people}-${engine}`;
    await db().insert(user).values({ id: uid, name: uid, email: `${uid}@theme.example`, emailVerified: true });
    await db().insert(profiles).values({ uid, name: uid });
    owner = { uid };
    const form = parseBioPageForm({ name: "Theme Shop", customEnding: "", blurb: "", links: [], sponsorships: [] });
    if (form.kind !== "SUCCESS") throw new Error("bad form");
    const created = await createBioPage(db(), owner, form.form);
    if (created.kind !== "SUCCESS") throw new Error(created.message);
    pageId = created.id;
    ending = created.customEnding;
  });

  const stored = async () => (await db().select({ theme: bioPages.theme }).from(bioPages).where(eq(bioPages.id, pageId)))[0]!.theme;

  it("starts with no theme: the public page wears the default", async () => {
    expect(await stored()).toBeNull();
    expect((await readPublicPage(db(), ending))!.theme).toEqual(DEFAULT_THEME);
  });

  it("keeps a page that never chose a look unchosen when a save sends the default look, as the editor's one Save does", async () => {
    expect(await saveBioTheme(db(), owner, pageId, { ...custom(), preset: "sponsorgrid", font: "system" })).toMatchObject({ kind: "SUCCESS" });
    expect(await stored()).toBeNull();
  });

  it("saves a preset and custom colours for the owner's page, and the public page wears them", async () => {
    expect(await saveBioTheme(db(), owner, pageId, { ...custom(), preset: "sunset", font: "serif" })).toMatchObject({ kind: "SUCCESS", customEnding: ending });
    expect(await stored()).toEqual({ ...presetById("sunset")!.theme, font: "serif" });
    expect(await saveBioTheme(db(), owner, pageId, custom({ background: "#FAFAFA" }))).toMatchObject({ kind: "SUCCESS" });
    expect((await readPublicPage(db(), ending))!.theme).toEqual({ preset: "custom", background: "#fafafa", text: "#222222", button: "#1d4ed8", buttonText: "#ffffff", font: "system" });
    // Back to the default from another look is a choice of its own, and is kept.
    expect(await saveBioTheme(db(), owner, pageId, { ...custom(), preset: "sponsorgrid", font: "system" })).toMatchObject({ kind: "SUCCESS" });
    expect(await stored()).toEqual(DEFAULT_THEME);
  });

  it("changes nothing for a failing theme, someone else, or a page that is not there", async () => {
    const before = await stored();
    expect(await saveBioTheme(db(), owner, pageId, custom({ text: "#fefefe" }))).toMatchObject({ kind: "ERROR", code: "invalid-argument" });
    expect(await saveBioTheme(db(), { uid: "someone-else" }, pageId, { ...custom(), preset: "mono" })).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await saveBioTheme(db(), owner, "not-an-id", { ...custom(), preset: "mono" })).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await stored()).toEqual(before);
  });
});
