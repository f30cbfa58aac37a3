import { describe, expect, it } from "vitest";
import { parseBioPageForm } from "#server/domains/bio/form";
import { createBioPage } from "#server/domains/bio/pages";
import { apiHarness } from "#tests/support/api";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { testSandbox } from "#tests/support/test-sandbox";

describe.each(ENGINES)("the API's membership tiers on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const api = apiHarness(database, { provider: () => sandbox.provider, rateLimits: { key: { limit: 10_000, windowSeconds: 60 }, unauthenticatedNetwork: { limit: 1000, windowSeconds: 60 } } });

  async function pageOf(uid: string): Promise<string> {
    const parsed = parseBioPageForm({ name: "Maya Makes", customEnding: "", blurb: "", links: [], sponsorships: [] });
    if (parsed.kind === "ERROR") throw new Error(JSON.stringify(parsed.fieldErrors));
    const created = await createBioPage(api.db, { uid }, parsed.form);
    if (created.kind === "ERROR") throw new Error(created.message);
    return created.id;
  }

  it("adds, lists and changes your page's tiers in cents, by the screen's rules, and only yours", async () => {
    const uid = await api.newAccount();
    const pageId = await pageOf(uid);
    const write = await api.keyFor(uid, ["memberships:write"]);
    const read = await api.keyFor(uid, ["memberships:read"]);

    const created = await api.call("POST", `/bio-pages/${pageId}/membership-tiers`, { key: write, body: { name: "Gold", monthlyPrice: 500, yearlyPrice: 5000, benefits: ["Early videos", " "] } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "Gold", monthlyPrice: 500, yearlyPrice: 5000, benefits: ["Early videos"], memberLimit: null, welcomeMessage: "", status: "active", members: 0 });

    const refused = await api.call("POST", `/bio-pages/${pageId}/membership-tiers`, { key: write, body: { name: "", monthlyPrice: 500, memberLimit: 0 } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.fields).toEqual({ "body.name": "Give the tier a name, like “Gold”", "body.memberLimit": "Enter a whole number from 1 to 100,000, or leave it blank for no limit" });

    const changed = await api.call("PATCH", `/membership-tiers/${created.body.id}`, { key: write, body: { monthlyPrice: 700, status: "paused" } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ name: "Gold", monthlyPrice: 700, yearlyPrice: 5000, benefits: ["Early videos"], status: "paused" });

    const listed = await api.call("GET", `/bio-pages/${pageId}/membership-tiers`, { key: read });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0]).toMatchObject({ id: created.body.id, status: "paused", monthlyPrice: 700 });
    expect((await api.call("GET", `/bio-pages/${pageId}/membership-tiers`, { key: write })).status).toBe(403);

    const stranger = await api.newAccount();
    const theirs = await api.keyFor(stranger, ["memberships:read", "memberships:write"]);
    expect((await api.call("GET", `/bio-pages/${pageId}/membership-tiers`, { key: theirs })).status).toBe(404);
    expect((await api.call("PATCH", `/membership-tiers/${created.body.id}`, { key: theirs, body: { name: "Mine" } })).status).toBe(404);
    expect((await api.call("PATCH", `/membership-tiers/${created.body.id}`, { key: theirs, body: { status: "retired" } })).status).toBe(404);
    expect((await api.call("PATCH", `/membership-tiers/${created.body.id}`, { key: theirs, body: {} })).status).toBe(404);
  });
});
