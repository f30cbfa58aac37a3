import { describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { spentCaptchaNonces } from "#server/platform/db/schema";
import { spendNonce } from "./spent-nonces";

describe.each(ENGINES)("spent captcha nonces on %s", (engine) => {
  const database = migratedDatabase(engine);

  const now = new Date("2026-11-22T12:00:00Z");
  const inTenMinutes = new Date(now.getTime() + 10 * 60_000);

  it("is true the first time a nonce is spent only, whatever the concurrency", async () => {
    expect(await spendNonce(database.db, "n-1", inTenMinutes, now)).toBe(true);
    expect(await spendNonce(database.db, "n-1", inTenMinutes, now)).toBe(false);
    const racing = await Promise.all(Array.from({ length: 8 }, () => spendNonce(database.db, "n-2", inTenMinutes, now)));
    expect(racing.filter(Boolean)).toHaveLength(1);
  });

  it("forgets nonces whose challenge has expired, and keeps the others", async () => {
    await spendNonce(database.db, "n-3", new Date(now.getTime() + 60_000), now);
    const later = new Date(now.getTime() + 5 * 60_000);
    expect(await spendNonce(database.db, "n-4", new Date(later.getTime() + 10 * 60_000), later)).toBe(true);
    const kept = (await database.db.select({ nonce: spentCaptchaNonces.nonce }).from(spentCaptchaNonces)).map((row) => row.nonce).sort();
    expect(kept).toEqual(["n-1", "n-2", "n-4"]);
  });
});
