import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { user } from "#server/platform/db/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { requireVerifiedEmail } from "./verified-email";

describe.each(ENGINES)("requireVerifiedEmail on %s", (engine) => {
  const database = migratedDatabase(engine);

  it("lets a verified account through and refuses an unverified or missing one", async () => {
    const uid = `verified-${Date.now()}`;
    await database.db.insert(user).values({ id: uid, name: "V", email: `${uid}@example.com`, emailVerified: true });
    expect(await requireVerifiedEmail(database.db, uid)).toEqual({ kind: "SUCCESS" });
    await database.db.update(user).set({ emailVerified: false }).where(eq(user.id, uid));
    expect(await requireVerifiedEmail(database.db, uid)).toMatchObject({ kind: "ERROR", code: "permission-denied", reason: "EMAIL_NOT_VERIFIED" });
    expect(await requireVerifiedEmail(database.db, "nobody")).toMatchObject({ kind: "ERROR", reason: "EMAIL_NOT_VERIFIED" });
  });
});
