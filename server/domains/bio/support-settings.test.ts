import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { bioPages, profiles, user } from "#server/platform/db/schema";
import { newBioPageId } from "./endings";
import { parseSupportSettings, readSupportSettings, saveSupportSettings, supportSettingsInput, type SupportSettingsInput } from "./support-settings";

const valid: SupportSettingsInput = { acceptTips: true, presets: ["2", "5.50", "20"], tipMinimum: "2", thankYouMessage: " Thank you!\r\nIt means a lot. " };

describe("support settings as typed", () => {
  it("reads dollars into minor units and keeps the thank-you's lines", () => {
    const parsed = parseSupportSettings(valid);
    expect(parsed).toEqual({ kind: "SUCCESS", settings: { acceptTips: true, tipPresets: [200, 550, 2000], tipMinimum: 200, thankYouMessage: "Thank you!\nIt means a lot." } });
  });

  it("says what is wrong with every field at once", () => {
    const parsed = parseSupportSettings({ acceptTips: false, presets: ["", "five", "1"], tipMinimum: "1.50", thankYouMessage: "x".repeat(1000) });
    expect(parsed.kind).toBe("ERROR");
    if (parsed.kind !== "ERROR") return;
    expect(parsed.fieldErrors).toEqual({
      preset0: "Required",
      preset1: "Enter an amount in dollars, like 5 or 5.50",
      preset2: "Must be at least your minimum tip, $1.50",
      thankYouMessage: "Must be under 1000 characters",
    });
  });

  it("holds the minimum to what the provider can charge and every amount to the largest payment taken", () => {
    const low = parseSupportSettings({ ...valid, tipMinimum: "0.25", presets: ["0.25", "5", "10"] });
    expect(low.kind === "ERROR" && low.fieldErrors).toEqual({ tipMinimum: "The minimum tip must be at least $0.50", preset0: "Must be at least $0.50" });
    const high = parseSupportSettings({ ...valid, tipMinimum: "20000", presets: ["10000.01", "5", "-3"] });
    expect(high.kind === "ERROR" && high.fieldErrors).toEqual({
      tipMinimum: "The minimum tip must be at most $10,000",
      preset0: "Must be at most $10,000",
      preset2: "Enter an amount in dollars, like 5 or 5.50",
    });
    expect(parseSupportSettings({ ...valid, tipMinimum: "0.50", presets: ["0.50", "10000", "3"] }).kind).toBe("SUCCESS");
  });

  it("shows stored settings in the form as they would be typed", () => {
    expect(supportSettingsInput({ acceptTips: false, tipPresets: [300, 550, 1000], tipMinimum: 100, thankYouMessage: "Hi" })).toEqual({
      acceptTips: false,
      presets: ["3", "5.50", "10"],
      tipMinimum: "1",
      thankYouMessage: "Hi",
    });
  });
});

let people = 0;
describe.each(ENGINES)("support settings on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;

  async function pageOfNewPerson(): Promise<{ uid: string; pageId: string }> {
    const uid = `support-person-${++people}`;
    await db().insert(user).values({ id: uid, name: uid, email: `${uid}@support.example`, emailVerified: true });
    await db().insert(profiles).values({ uid, name: uid });
    const pageId = newBioPageId();
    await db().insert(bioPages).values({ id: pageId, uid, customEnding: `support_${people}`, name: "Maya" });
    return { uid, pageId };
  }

  it("starts at tips on, $3 / $5 / $10 and a $1 minimum", async () => {
    const { uid, pageId } = await pageOfNewPerson();
    expect(await readSupportSettings(db(), { uid }, pageId)).toEqual({
      kind: "SUCCESS",
      settings: { acceptTips: true, tipPresets: [300, 500, 1000], tipMinimum: 100, thankYouMessage: "" },
      takesPayments: false,
    });
  });

  it("saves the owner's settings", async () => {
    const { uid, pageId } = await pageOfNewPerson();
    const saved = await saveSupportSettings(db(), { uid }, pageId, { ...valid, acceptTips: false });
    expect(saved.kind).toBe("SUCCESS");
    const [row] = await db().select().from(bioPages).where(eq(bioPages.id, pageId));
    expect(row).toMatchObject({ acceptTips: false, tipPresets: [200, 550, 2000], tipMinimum: 200, thankYouMessage: "Thank you!\nIt means a lot." });
  });

  it("changes nothing for someone else, or for a bad form", async () => {
    const { uid, pageId } = await pageOfNewPerson();
    const stranger = await pageOfNewPerson();
    expect((await saveSupportSettings(db(), { uid: stranger.uid }, pageId, valid)).kind).toBe("ERROR");
    expect((await readSupportSettings(db(), { uid: stranger.uid }, pageId)).kind).toBe("ERROR");
    expect((await saveSupportSettings(db(), { uid }, "not-a-page-id", valid)).kind).toBe("ERROR");
    const refused = await saveSupportSettings(db(), { uid }, pageId, { ...valid, presets: ["1", "2", "3"], tipMinimum: "5" });
    expect(refused).toMatchObject({ kind: "ERROR", code: "invalid-argument" });
    const [row] = await db().select().from(bioPages).where(eq(bioPages.id, pageId));
    expect(row).toMatchObject({ acceptTips: true, tipPresets: [300, 500, 1000], tipMinimum: 100, thankYouMessage: "" });
  });
});
