import { beforeAll, describe, expect, it } from "vitest";
import { user } from "#server/platform/db/schema";
import { createProfileForNewUser, recordSignupType } from "#server/domains/accounts/profiles";
import { proPitchFor } from "#server/domains/pro/pitch";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { insertSponsors, sponsorRow } from "#tests/support/sponsor-directory";

describe.each(ENGINES)("whom the Pro page pitches (%s)", (engine) => {
  const database = migratedDatabase(engine);

  beforeAll(async () => {
    for (const [id, type] of [["creator", "creator"], ["sponsor", "sponsor"], ["undecided", null]] as const) {
      await database.db.insert(user).values({ id, name: id, email: `${id}@pitch.example`, emailVerified: true });
      await createProfileForNewUser(database.db, { id, name: id });
      await recordSignupType(database.db, id, type);
    }
    await insertSponsors(database.db, [sponsorRow("acme", "Acme", { inPreviewSample: true, addedAt: new Date("2026-11-02T12:00:00Z") })]);
  });

  it("shows creators and undecided people the directory's evidence, and tells sponsors Pro is not for them", async () => {
    const now = new Date("2026-11-29T12:00:00Z");
    for (const uid of ["creator", "undecided"]) {
      expect(await proPitchFor(database.db, uid, now)).toMatchObject({ kind: "evidence", counts: { companies: 1, addedThisMonth: 1, samples: false }, preview: { name: "Acme" } });
    }
    expect(await proPitchFor(database.db, "sponsor", now)).toEqual({ kind: "sponsor" });
  });
});
