import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { presetById } from "#isomorphic/bio-theme";
import { bioPages, profiles, user } from "#server/platform/db/schema";
import { newBioPageId } from "./endings";
import { applyNewPageExtras, createBioPageWithExtras, formDataToNewPageExtras } from "./new-page-extras";

const form = (fields: [string, string][]) => {
  const data = new FormData();
  for (const [name, value] of fields) data.append(name, value);
  return data;
};

describe("the new page's extras as sent", () => {
  it("reads the chosen preset and the tips switch, ticked or not", () => {
    expect(formDataToNewPageExtras(form([["themePreset", "forest"], ["acceptTips", "off"], ["acceptTips", "on"]]))).toEqual({ preset: "forest", acceptTips: true });
    expect(formDataToNewPageExtras(form([["themePreset", "paper"], ["acceptTips", "off"]]))).toEqual({ preset: "paper", acceptTips: false });
  });

  it("keeps a new page's defaults when the fields are missing, and reads a preset nobody offers as none", () => {
    expect(formDataToNewPageExtras(form([]))).toEqual({ preset: "sponsorgrid", acceptTips: true });
    expect(formDataToNewPageExtras(form([["themePreset", "custom"]])).preset).toBe("sponsorgrid");
    expect(formDataToNewPageExtras(form([["themePreset", "<script>"]])).preset).toBe("sponsorgrid");
  });
});

let people = 0;
describe.each(ENGINES)("the new page's extras saved on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;

  async function pageOfNewPerson(): Promise<{ uid: string; pageId: string }> {
    const uid = `extras-person-${++people}`;
    await db().insert(user).values({ id: uid, name: uid, email: `${uid}@extras.example`, emailVerified: true });
    await db().insert(profiles).values({ uid, name: uid });
    const pageId = newBioPageId();
    await db().insert(bioPages).values({ id: pageId, uid, customEnding: `extras_${people}`, name: "Maya" });
    return { uid, pageId };
  }

  const stored = async (pageId: string) => (await db().select({ theme: bioPages.theme, acceptTips: bioPages.acceptTips }).from(bioPages).where(eq(bioPages.id, pageId)))[0];

  it("gives the page the preset's look and turns tips off", async () => {
    const { uid, pageId } = await pageOfNewPerson();
    await applyNewPageExtras(db(), { uid }, pageId, { preset: "midnight", acceptTips: false });
    expect(await stored(pageId)).toEqual({ theme: presetById("midnight")!.theme, acceptTips: false });
  });

  it("writes nothing for the defaults, and nothing to someone else's page", async () => {
    const { uid, pageId } = await pageOfNewPerson();
    const before = await stored(pageId);
    await applyNewPageExtras(db(), { uid }, pageId, { preset: "sponsorgrid", acceptTips: true });
    await applyNewPageExtras(db(), { uid: "someone-else" }, pageId, { preset: "forest", acceptTips: false });
    expect(await stored(pageId)).toEqual(before);
  });
  it("creates a page with its look and tips switch together, and a refused page leaves nothing", async () => {
    const uid = `extras-person-${++people}`;
    await db().insert(user).values({ id: uid, name: uid, email: `${uid}@extras.example`, emailVerified: true });
    await db().insert(profiles).values({ uid, name: uid });
    const form = { name: "Forest Maker", customEnding: `forest_${people}`, blurb: "", links: [], sponsorships: [] };
    const created = await createBioPageWithExtras(db(), { uid }, form, { preset: "forest", acceptTips: false });
    if (created.kind !== "SUCCESS") throw new Error(created.message);
    expect(await stored(created.id)).toEqual({ theme: presetById("forest")!.theme, acceptTips: false });
    // The same ending again is refused, and no second page exists.
    expect(await createBioPageWithExtras(db(), { uid }, form, { preset: "midnight", acceptTips: true })).toMatchObject({ kind: "ERROR" });
    expect(await db().select({ id: bioPages.id }).from(bioPages).where(eq(bioPages.uid, uid))).toHaveLength(1);
  });
});
