import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { profiles, user } from "#server/platform/db/schema";
import { parseBioPageForm, type BioPageFormInput } from "#server/domains/bio/form";
import { createBioPage, getOwnPage, listOwnPages } from "#server/domains/bio/pages";
import { parseOpportunityForm } from "#server/domains/opportunities/form";
import { createOpportunity } from "#server/domains/opportunities/mutations";
import { apiHarness } from "#tests/support/api";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { testSandbox } from "#tests/support/test-sandbox";

const page: BioPageFormInput = {
  name: "Maya Makes",
  customEnding: "",
  blurb: "Videos about making things.",
  links: [{ type: "youtube", url: "https://youtube.com/@maya" }, { type: "website", url: "https://maya.example", title: "My shop", enabled: false }],
  sponsorships: [],
};

describe.each(ENGINES)("the API's bio pages on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const api = apiHarness(database, { provider: () => sandbox.provider, rateLimits: { key: { limit: 10_000, windowSeconds: 60 }, unauthenticatedNetwork: { limit: 1000, windowSeconds: 60 } } });

  /** A page made the way the editor makes one. */
  async function pageOf(uid: string, overrides: Partial<BioPageFormInput> = {}): Promise<string> {
    const parsed = parseBioPageForm({ ...page, ...overrides });
    if (parsed.kind === "ERROR") throw new Error(JSON.stringify(parsed.fieldErrors));
    const created = await createBioPage(api.db, { uid }, parsed.form);
    if (created.kind === "ERROR") throw new Error(created.message);
    return created.id;
  }

  async function opportunityOf(uid: string): Promise<string> {
    const parsed = parseOpportunityForm({
      title: "Sponsor my channel", description: "A test.", bullets: "", organization: "", website: "", minContribution: "50",
      deadlineDate: "", deadlineTime: "", deadlineTimeZone: "", contactName: "", contactEmail: "", contactPhone: "", tags: [],
    });
    if (parsed.kind === "ERROR") throw new Error("bad post form");
    const created = await createOpportunity(api.db, { uid }, parsed.form, new Set());
    if (created.kind === "ERROR") throw new Error(created.message);
    return created.id;
  }

  it("lists only your own pages, last updated first, paged with cursors", async () => {
    const uid = await api.newAccount();
    const ids: string[] = [];
    for (const name of ["Maya Makes", "Maya Cooks", "Maya Sings"]) ids.push(await pageOf(uid, { name }));
    await pageOf(await api.newAccount(), { name: "Someone else" });
    const key = await api.keyFor(uid, ["bio_pages:read"]);
    const whole = await api.call("GET", "/bio-pages", { key });
    expect(whole.status).toBe(200);
    expect(whole.body.nextCursor).toBeNull();
    expect(whole.body.data.map((item: { id: string }) => item.id).sort()).toEqual([...ids].sort());
    expect(whole.body.data.find((item: { id: string }) => item.id === ids[1])).toMatchObject({ name: "Maya Cooks", views: 0, customEnding: expect.any(String) });
    const updated = whole.body.data.map((item: { updatedAt: string }) => item.updatedAt);
    expect(updated).toEqual([...updated].sort().reverse());

    const first = await api.call("GET", "/bio-pages?limit=2", { key });
    expect(first.body.data).toEqual(whole.body.data.slice(0, 2));
    const second = await api.call("GET", `/bio-pages?limit=2&cursor=${first.body.nextCursor}`, { key });
    expect(second.body).toEqual({ data: whole.body.data.slice(2), nextCursor: null });
    const refused = await api.call("GET", "/bio-pages?cursor=garbage", { key });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("invalid_request");
  });

  it("reads your page as the editor shows it; another account's page or a missing one is 404", async () => {
    const uid = await api.newAccount();
    const id = await pageOf(uid);
    const key = await api.keyFor(uid, ["bio_pages:read"]);
    const read = await api.call("GET", `/bio-pages/${id}`, { key });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      id,
      name: "Maya Makes",
      blurb: "Videos about making things.",
      links: [
        { type: "youtube", url: "https://youtube.com/@maya", title: null, enabled: true },
        { type: "website", url: "https://maya.example", title: "My shop", enabled: false },
      ],
      sponsorships: [],
    });

    const stranger = await api.keyFor(await api.newAccount());
    for (const path of [`/bio-pages/${id}`, "/bio-pages/nothingHereAtAll0000", "/bio-pages/%00"]) {
      const refused = await api.call("GET", path, { key: stranger });
      expect(refused.status).toBe(404);
      expect(refused.body.error.code).toBe("not_found");
    }
  });

  it("changes only the fields sent, through the editor's function, and the editor sees it", async () => {
    const uid = await api.newAccount();
    await api.db.insert(profiles).values({ uid, name: "Maya", paymentsEnabled: true });
    const id = await pageOf(uid);
    const postId = await opportunityOf(uid);
    const key = await api.keyFor(uid, ["bio_pages:read", "bio_pages:write"]);

    const renamed = await api.call("PATCH", `/bio-pages/${id}`, { key, body: { name: "Maya Builds" } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "Maya Builds", blurb: "Videos about making things." });
    expect(renamed.body.links).toHaveLength(2);

    const relinked = await api.call("PATCH", `/bio-pages/${id}`, {
      key,
      body: { links: [{ type: "twitch", url: "https://twitch.tv/maya", title: "Live on Fridays" }], sponsorships: [postId] },
    });
    expect(relinked.status).toBe(200);
    expect(relinked.body).toMatchObject({ name: "Maya Builds", links: [{ type: "twitch", url: "https://twitch.tv/maya", title: "Live on Fridays", enabled: true }], sponsorships: [postId] });

    const own = await getOwnPage(api.db, { uid }, id);
    expect(own).toMatchObject({ kind: "SUCCESS", page: { name: "Maya Builds", links: [{ type: "twitch", url: "https://twitch.tv/maya", title: "Live on Fridays" }], sponsorships: [postId] } });
    expect((await listOwnPages(api.db, uid)).map((row) => row.name)).toEqual(["Maya Builds"]);
  });

  it("names each field the editor refuses", async () => {
    const uid = await api.newAccount();
    const id = await pageOf(uid);
    const key = await api.keyFor(uid);
    const refused = await api.call("PATCH", `/bio-pages/${id}`, {
      key,
      body: { name: " ", links: [{ type: "youtube", url: "https://youtube.com/@maya" }, { type: "youtube", url: "https://youtube.com/@maya2" }, { type: "instagram", url: "https://evil.example/maya" }] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("invalid_request");
    expect(Object.keys(refused.body.error.fields).sort()).toEqual(["body.links.1", "body.links.2", "body.name"]);
    expect(refused.body.error.fields["body.name"]).toBe("Required");

    // Sponsorship options need payments set up, and only your own posts: the editor's message, on the field.
    const notYours = await opportunityOf(await api.newAccount());
    const sponsorship = await api.call("PATCH", `/bio-pages/${id}`, { key, body: { sponsorships: [notYours] } });
    expect(sponsorship.status).toBe(400);
    expect(sponsorship.body.error.fields).toEqual({ "body.sponsorships": "Set up payments before you offer sponsorship options" });

    for (const body of [{ customEnding: "another" }, { links: [{ type: "myspace", url: "https://myspace.com/maya" }] }, { links: [{ type: "youtube", url: "" }] }]) {
      const invalid = await api.call("PATCH", `/bio-pages/${id}`, { key, body });
      expect(invalid.status, JSON.stringify(body)).toBe(400);
      expect(invalid.body.error.code).toBe("invalid_request");
    }
    expect(await getOwnPage(api.db, { uid }, id)).toMatchObject({ page: { name: "Maya Makes" } });
  });

  it("another account's page is 404 to change, and stays as it was", async () => {
    const owner = await api.newAccount();
    const id = await pageOf(owner);
    const stranger = await api.keyFor(await api.newAccount());
    const refused = await api.call("PATCH", `/bio-pages/${id}`, { key: stranger, body: { name: "Mine now" } });
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe("not_found");
    expect(await getOwnPage(api.db, { uid: owner }, id)).toMatchObject({ page: { name: "Maya Makes" } });
  });

  it("needs a verified email address, as the editor does", async () => {
    const uid = await api.newAccount();
    const id = await pageOf(uid);
    const key = await api.keyFor(uid);
    await api.db.update(user).set({ emailVerified: false }).where(eq(user.id, uid));
    for (const [method, path, body] of [["GET", "/bio-pages", undefined], ["GET", `/bio-pages/${id}`, undefined], ["PATCH", `/bio-pages/${id}`, { name: "x" }]] as const) {
      const refused = await api.call(method, path, { key, body });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe("email_not_verified");
    }
  });

  it("each operation needs its scope", async () => {
    const uid = await api.newAccount();
    const id = await pageOf(uid);
    const reader = await api.keyFor(uid, ["bio_pages:read"]);
    const writer = await api.keyFor(uid, ["bio_pages:write"]);
    const others = await api.keyFor(uid, ["opportunities:read", "opportunities:write", "payments:read", "payments:write", "notifications:read", "notifications:write"]);
    type Call = { key: string; method: string; path: string; body?: object };
    const calls: Call[] = [
      { key: writer, method: "GET", path: "/bio-pages" },
      { key: writer, method: "GET", path: `/bio-pages/${id}` },
      { key: reader, method: "PATCH", path: `/bio-pages/${id}`, body: { name: "x" } },
      { key: others, method: "GET", path: "/bio-pages" },
      { key: others, method: "GET", path: `/bio-pages/${id}` },
      { key: others, method: "PATCH", path: `/bio-pages/${id}`, body: { name: "x" } },
    ];
    for (const { key, method, path, body } of calls) {
      const refused = await api.call(method, path, { key, body });
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.body.error.code).toBe("insufficient_scope");
    }
    expect(await getOwnPage(api.db, { uid }, id)).toMatchObject({ page: { name: "Maya Makes" } });
  });
});
