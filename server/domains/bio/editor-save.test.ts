import { describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { bioPages, profiles, user } from "#server/platform/db/schema";
import { saveBioEditor, type BioEditorInput } from "./editor-save";
import { newBioPageId } from "./endings";
import { getOwnPage } from "./pages";
import { readSupportSettings } from "./support-settings";
import { readWallGoalSettings } from "./wall-goal-settings";

let people = 0;
describe.each(ENGINES)("the bio editor's one save on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;

  async function pageOfNewPerson(): Promise<{ uid: string; pageId: string; ending: string }> {
    const uid = `editor-save-${++people}`;
    await db().insert(user).values({ id: uid, name: uid, email: `${uid}@editor.example`, emailVerified: true });
    await db().insert(profiles).values({ uid, name: uid });
    const pageId = newBioPageId();
    const ending = `editor_save_${people}_${engine}`;
    await db().insert(bioPages).values({ id: pageId, uid, customEnding: ending, name: "Maya", blurb: "Before." });
    return { uid, pageId, ending };
  }

  const input = (ending: string): { [Section in keyof BioEditorInput]: NonNullable<BioEditorInput[Section]> } => ({
    page: { name: "Maya Makes", customEnding: ending, blurb: "After.", links: [{ type: "website", url: "https://maya.example", title: "Shop" }], sponsorships: [] },
    theme: { preset: "midnight", font: "serif", background: "", text: "", button: "", buttonText: "" },
    support: { acceptTips: false, presets: ["2", "5", "20"], tipMinimum: "2", thankYouMessage: "Thanks!" },
    wallGoal: { wallEnabled: true, goalTitle: "New camera", goalTarget: "500", removeGoal: false },
  });

  async function stored(uid: string, pageId: string) {
    const page = await getOwnPage(db(), { uid }, pageId);
    const support = await readSupportSettings(db(), { uid }, pageId);
    const wallGoal = await readWallGoalSettings(db(), { uid }, pageId);
    if (page.kind === "ERROR" || support.kind === "ERROR" || wallGoal.kind === "ERROR") throw new Error("page gone");
    return {
      blurb: page.page.blurb,
      links: page.page.links,
      theme: page.page.theme?.preset ?? null,
      font: page.page.theme?.font ?? null,
      tips: support.settings.acceptTips,
      minimum: support.settings.tipMinimum,
      wall: wallGoal.settings.wallEnabled,
      goal: wallGoal.settings.goalTarget,
    };
  }

  it("writes the page's fields, its look, its support block and its wall and goal together", async () => {
    const { uid, pageId, ending } = await pageOfNewPerson();
    expect(await saveBioEditor(db(), { uid }, pageId, input(ending))).toEqual({ kind: "SUCCESS", customEnding: ending });
    expect(await stored(uid, pageId)).toEqual({
      blurb: "After.",
      links: [{ type: "website", url: "https://maya.example", title: "Shop" }],
      theme: "midnight",
      font: "serif",
      tips: false,
      minimum: 200,
      wall: true,
      goal: 50000,
    });
    // "Remove goal" saves everything else with no goal.
    const removed = await saveBioEditor(db(), { uid }, pageId, { ...input(ending), wallGoal: { ...input(ending).wallGoal, removeGoal: true } });
    expect(removed.kind).toBe("SUCCESS");
    expect((await stored(uid, pageId)).goal).toBeNull();
  });

  it("refuses with every section's messages at once, by section and field, and writes nothing", async () => {
    const { uid, pageId, ending } = await pageOfNewPerson();
    const before = await stored(uid, pageId);
    const wrong = input(ending);
    const refused = await saveBioEditor(db(), { uid }, pageId, {
      page: { ...wrong.page, name: "" },
      theme: { ...wrong.theme, preset: "custom", background: "#ffffff", text: "#fefefe", button: "#000000", buttonText: "#ffffff" },
      support: { ...wrong.support, tipMinimum: "0.10" },
      wallGoal: { ...wrong.wallGoal, goalTarget: "0" },
    });
    expect(refused).toMatchObject({
      kind: "ERROR",
      code: "invalid-argument",
      message: "4 fields need a change: nothing was saved.",
      sectionErrors: {
        page: { name: "Required" },
        theme: { text: expect.stringContaining("contrast") },
        support: { tipMinimum: "The minimum tip must be at least $0.50" },
        wallGoal: { goalTarget: "The target must be more than $0" },
      },
    });
    expect(await stored(uid, pageId)).toEqual(before);
  });

  it("writes nothing when the database refuses the page's part (the permanent ending), keeps sections not sent, and writes nothing of someone else's page", async () => {
    const { uid, pageId, ending } = await pageOfNewPerson();
    const before = await stored(uid, pageId);
    const renamed = await saveBioEditor(db(), { uid }, pageId, input(`${ending}_elsewhere`));
    expect(renamed).toMatchObject({ kind: "ERROR", sectionErrors: { page: { customEnding: "The custom ending is permanent and can't be changed" } } });
    expect(await stored(uid, pageId)).toEqual(before);

    // A post of the page's fields alone keeps the stored look, tips, wall and goal.
    const pageOnly = await saveBioEditor(db(), { uid }, pageId, { page: input(ending).page, theme: null, support: null, wallGoal: null });
    expect(pageOnly.kind).toBe("SUCCESS");
    expect(await stored(uid, pageId)).toEqual({ ...before, blurb: "After.", links: [{ type: "website", url: "https://maya.example", title: "Shop" }] });

    const stranger = await pageOfNewPerson();
    expect(await saveBioEditor(db(), { uid: stranger.uid }, pageId, input(ending))).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect((await stored(uid, pageId)).theme).toBe(before.theme);
  });
});
