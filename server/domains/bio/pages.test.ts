import { eq } from "drizzle-orm";
import { fieldRefusal } from "#server/platform/errors";
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { bioPages, bioPageViews, memberships, membershipTiers, profiles, user } from "#server/platform/db/schema";
import { parseOpportunityForm } from "#server/domains/opportunities/form";
import { createOpportunity, deleteOpportunity } from "#server/domains/opportunities/mutations";
import { defaultEndingFor } from "./endings";
import { parseBioPageForm, type BioPageForm, type BioPageFormInput } from "./form";
import { createBioPage, deleteBioPage, editBioPage, getOwnPage, isEndingTaken, listOwnPages, MAX_PAGES_PER_OWNER, pageHasMembersMessage } from "./pages";
import { readPublicPage } from "./public-page";
import { sponsorshipChoices } from "./sponsorship-options";

const input: BioPageFormInput = {
  name: "Maya Makes",
  customEnding: "",
  blurb: "Videos about making things.",
  links: [{ type: "youtube", url: "https://youtube.com/@maya" }],
  sponsorships: [],
};
function form(overrides: Partial<BioPageFormInput> = {}): BioPageForm {
  const parsed = parseBioPageForm({ ...input, ...overrides });
  if (parsed.kind !== "SUCCESS") throw new Error(JSON.stringify(parsed.fieldErrors));
  return parsed.form;
}

let people = 0;
describe.each(ENGINES)("bio pages on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;

  /** A new person with a profile, payments on or off. */
  async function person(paymentsEnabled = false): Promise<{ uid: string }> {
    const uid = `bio-person-${++people}`;
    await db().insert(user).values({ id: uid, name: uid, email: `${uid}@bio.example`, emailVerified: true });
    await db().insert(profiles).values({ uid, name: uid, paymentsEnabled });
    return { uid };
  }
  async function post(owner: { uid: string }, title = "Sponsor my channel"): Promise<string> {
    const parsed = parseOpportunityForm({
      title, description: "A test.", bullets: "", organization: "", website: "", minContribution: "50",
      deadlineDate: "", deadlineTime: "", deadlineTimeZone: "", contactName: "", contactEmail: "", contactPhone: "", tags: [],
    });
    if (parsed.kind !== "SUCCESS") throw new Error("bad post form");
    const created = await createOpportunity(db(), owner, parsed.form, new Set());
    if (created.kind !== "SUCCESS") throw new Error(created.message);
    return created.id;
  }
  const row = async (id: string) => (await db().select().from(bioPages).where(eq(bioPages.id, id)))[0];
  const views = async (id: string) => (await db().select().from(bioPageViews).where(eq(bioPageViews.pageId, id)))[0];

  let maya: { uid: string };
  let jordan: { uid: string };
  beforeAll(async () => {
    maya = await person();
    jordan = await person();
  });

  it("creates a page with its views record at 0 and a default ending from its id", async () => {
    const created = await createBioPage(db(), maya, form());
    expect(created.kind).toBe("SUCCESS");
    if (created.kind !== "SUCCESS") return;
    expect(created.customEnding).toBe(defaultEndingFor(created.id));
    expect(created.customEnding).toMatch(/^[a-z0-9_]+$/);
    expect(await views(created.id)).toMatchObject({ count: 0, uid: maya.uid });
    expect(await row(created.id)).toMatchObject({ uid: maya.uid, name: "Maya Makes", links: [{ type: "youtube", url: "https://youtube.com/@maya" }] });
    const listed = await listOwnPages(db(), maya.uid);
    expect(listed.find((page) => page.id === created.id)).toMatchObject({ views: 0, customEnding: created.customEnding });
    expect(await readPublicPage(db(), created.customEnding)).toMatchObject({ name: "Maya Makes" });
  });

  it("keeps endings unique: a taken one is 'This URL is already taken' and nothing is written", async () => {
    expect(await createBioPage(db(), maya, form({ customEnding: "maya_unique" }))).toMatchObject({ kind: "SUCCESS" });
    const before = (await listOwnPages(db(), jordan.uid)).length;
    const taken = await createBioPage(db(), jordan, form({ customEnding: "maya_unique" }));
    expect(taken).toMatchObject({ kind: "ERROR", code: "invalid-argument", fieldErrors: { customEnding: "This URL is already taken" } });
    expect(await listOwnPages(db(), jordan.uid)).toHaveLength(before);
    expect(await isEndingTaken(db(), "maya_unique")).toBe(true);
    expect(await isEndingTaken(db(), "maya_free")).toBe(false);
    expect(await isEndingTaken(db(), "Not An Ending")).toBe(false);
    // Reserved words never reach the database: the form refuses them with the same message.
    expect(parseBioPageForm({ ...input, customEnding: "admin" })).toEqual(fieldRefusal({ customEnding: "This URL is already taken" }));
  });

  it(`stops at ${MAX_PAGES_PER_OWNER} pages per person, even when the requests race`, async () => {
    const owner = await person();
    const results = await Promise.all(Array.from({ length: MAX_PAGES_PER_OWNER + 3 }, () => createBioPage(db(), owner, form())));
    expect(results.filter((r) => r.kind === "SUCCESS")).toHaveLength(MAX_PAGES_PER_OWNER);
    expect(results.filter((r) => r.kind === "ERROR")[0]).toMatchObject({ code: "resource-exhausted", message: expect.stringContaining(`at most ${MAX_PAGES_PER_OWNER} pages`) });
    expect(await listOwnPages(db(), owner.uid)).toHaveLength(MAX_PAGES_PER_OWNER);
  });

  it("edits by merging: the ending, owner, creation date and views stay", async () => {
    const created = await createBioPage(db(), maya, form({ customEnding: "maya_edit" }));
    if (created.kind !== "SUCCESS") throw new Error("create failed");
    await db().update(bioPageViews).set({ count: 42 }).where(eq(bioPageViews.pageId, created.id));
    const before = await row(created.id);
    const edited = await editBioPage(db(), maya, created.id, form({ name: "Maya Makes Things", blurb: "", links: [{ type: "twitch", url: "https://twitch.tv/maya" }] }));
    expect(edited).toEqual({ kind: "SUCCESS", id: created.id, customEnding: "maya_edit" });
    const after = await row(created.id);
    expect(after).toMatchObject({ name: "Maya Makes Things", blurb: "", links: [{ type: "twitch", url: "https://twitch.tv/maya" }], customEnding: "maya_edit", uid: maya.uid });
    expect(after!.created).toEqual(before!.created);
    expect(after!.updatedAt.getTime()).toBeGreaterThanOrEqual(before!.updatedAt.getTime());
    expect((await views(created.id))!.count).toBe(42);
    // Sending the same ending back (the read-only field) is fine; another one is refused and nothing changes.
    expect(await editBioPage(db(), maya, created.id, form({ customEnding: "maya_edit", name: "Same ending" }))).toMatchObject({ kind: "SUCCESS" });
    const refused = await editBioPage(db(), maya, created.id, form({ customEnding: "maya_other", name: "Changed?" }));
    expect(refused).toMatchObject({ kind: "ERROR", code: "invalid-argument", fieldErrors: { customEnding: "The custom ending is permanent and can't be changed" } });
    expect(await row(created.id)).toMatchObject({ customEnding: "maya_edit", name: "Same ending" });
  });

  it("treats someone else's page as not found for read, edit and delete, and changes nothing", async () => {
    const created = await createBioPage(db(), maya, form({ customEnding: "maya_private" }));
    if (created.kind !== "SUCCESS") throw new Error("create failed");
    const before = await row(created.id);
    expect(await getOwnPage(db(), jordan, created.id)).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await editBioPage(db(), jordan, created.id, form({ name: "Hijacked" }))).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await deleteBioPage(db(), jordan, created.id)).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await row(created.id)).toEqual(before);
    expect(await views(created.id)).toBeDefined();
    for (const forged of ["", "../x", "x".repeat(65), "a b", "'; drop table bio_pages; --"]) {
      expect(await getOwnPage(db(), maya, forged)).toMatchObject({ kind: "ERROR", code: "not-found" });
      expect(await deleteBioPage(db(), maya, forged)).toMatchObject({ kind: "ERROR", code: "not-found" });
    }
  });

  it("deletes the page and its views record together; its address then finds nothing", async () => {
    const created = await createBioPage(db(), maya, form({ customEnding: "maya_gone" }));
    if (created.kind !== "SUCCESS") throw new Error("create failed");
    expect(await deleteBioPage(db(), maya, created.id)).toEqual({ kind: "SUCCESS", customEnding: "maya_gone" });
    expect(await row(created.id)).toBeUndefined();
    expect(await views(created.id)).toBeUndefined();
    expect(await readPublicPage(db(), "maya_gone")).toBeNull();
    expect(await deleteBioPage(db(), maya, created.id)).toMatchObject({ kind: "ERROR", code: "not-found" });
    // The ending is free again.
    expect(await createBioPage(db(), jordan, form({ customEnding: "maya_gone" }))).toMatchObject({ kind: "SUCCESS" });
  });

  it("refuses to delete a page whose members still pay, and deletes it once they have ended", async () => {
    const created = await createBioPage(db(), maya, form({ customEnding: "maya_members" }));
    if (created.kind !== "SUCCESS") throw new Error("create failed");
    await db().insert(membershipTiers).values({ id: "tier_delete_test", bioPageId: created.id, name: "Gold", monthlyPrice: 500 });
    const member = { tierId: "tier_delete_test", bioPageId: created.id, creatorUid: maya.uid, provider: "sandbox", destinationAccountId: "acct_x", amount: 500 };
    await db().insert(memberships).values([
      { ...member, id: "mem_delete_1", status: "active" },
      { ...member, id: "mem_delete_2", status: "cancelled" },
      { ...member, id: "mem_delete_3", status: "ended" },
    ]);
    expect(await deleteBioPage(db(), maya, created.id)).toEqual({ kind: "ERROR", code: "aborted", message: pageHasMembersMessage(2) });
    expect(pageHasMembersMessage(2)).toBe(
      "This page has 2 current members. End their memberships on Members before deleting the page, so nobody is charged for a page that is gone.",
    );
    expect(await row(created.id)).toBeDefined();
    await db().update(memberships).set({ status: "ended" }).where(eq(memberships.bioPageId, created.id));
    expect(await deleteBioPage(db(), maya, created.id)).toEqual({ kind: "SUCCESS", customEnding: "maya_members" });
  });

  describe("sponsorship options", () => {
    it("are only the owner's own posts, and only with payments enabled", async () => {
      const payer = await person(true);
      const noPayments = await person(false);
      const own = await post(payer, "Payer's post");
      const theirs = await post(noPayments, "Someone else's post");
      expect(await sponsorshipChoices(db(), noPayments.uid)).toEqual({ paymentsEnabled: false, posts: [] });
      expect(await sponsorshipChoices(db(), payer.uid)).toEqual({ paymentsEnabled: true, posts: [{ id: own, title: "Payer's post", minContributionCents: 5000, currency: "usd" }] });

      const refusedOwn = await createBioPage(db(), noPayments, form({ sponsorships: [theirs] }));
      expect(refusedOwn).toMatchObject({ kind: "ERROR", fieldErrors: { sponsorships: "Set up payments before you offer sponsorship options" } });
      const before = (await listOwnPages(db(), payer.uid)).length;
      const refusedOther = await createBioPage(db(), payer, form({ sponsorships: [own, theirs] }));
      expect(refusedOther).toMatchObject({ kind: "ERROR", fieldErrors: { sponsorships: "You can only offer your own opportunities as sponsorship options" } });
      expect(await createBioPage(db(), payer, form({ sponsorships: ["not a post id"] }))).toMatchObject({ kind: "ERROR" });
      expect(await listOwnPages(db(), payer.uid)).toHaveLength(before);

      // A post chosen twice is kept once.
      const created = await createBioPage(db(), payer, form({ sponsorships: [own, own] }));
      if (created.kind !== "SUCCESS") throw new Error(created.message);
      expect((await row(created.id))!.sponsorships).toEqual([{ post_id: own }]);
      expect(await readPublicPage(db(), created.customEnding)).toMatchObject({ sponsorships: [{ id: own, title: "Payer's post" }] });
    });

    it("disappear when their post is deleted, and while payments are off", async () => {
      const payer = await person(true);
      const first = await post(payer, "First");
      const second = await post(payer, "Second");
      const created = await createBioPage(db(), payer, form({ sponsorships: [first, second] }));
      if (created.kind !== "SUCCESS") throw new Error(created.message);
      expect(await deleteOpportunity(db(), payer, first)).toMatchObject({ kind: "SUCCESS" });
      expect(await getOwnPage(db(), payer, created.id)).toMatchObject({ page: { sponsorships: [second] } });
      expect((await readPublicPage(db(), created.customEnding))!.sponsorships.map((s) => s.id)).toEqual([second]);
      await db().update(profiles).set({ paymentsEnabled: false }).where(eq(profiles.uid, payer.uid));
      expect((await readPublicPage(db(), created.customEnding))!.sponsorships).toEqual([]);

      // Editing while payments are off keeps the options already chosen (a stale deleted one goes), adds none.
      const third = await post(payer, "Third");
      expect(await editBioPage(db(), payer, created.id, form({ name: "Renamed", sponsorships: [first, second] }))).toMatchObject({ kind: "SUCCESS" });
      expect((await row(created.id))!.sponsorships).toEqual([{ post_id: second }]);
      const adding = await editBioPage(db(), payer, created.id, form({ sponsorships: [second, third] }));
      expect(adding).toMatchObject({ kind: "ERROR", fieldErrors: { sponsorships: "Set up payments before you offer sponsorship options" } });
      expect(await row(created.id)).toMatchObject({ name: "Renamed", sponsorships: [{ post_id: second }] });
      await db().update(profiles).set({ paymentsEnabled: true }).where(eq(profiles.uid, payer.uid));
      expect((await readPublicPage(db(), created.customEnding))!.sponsorships.map((s) => s.title)).toEqual(["Second"]);
      // Unticking removes an option.
      expect(await editBioPage(db(), payer, created.id, form({ sponsorships: [] }))).toMatchObject({ kind: "SUCCESS" });
      expect((await row(created.id))!.sponsorships).toEqual([]);
    });
  });
});
