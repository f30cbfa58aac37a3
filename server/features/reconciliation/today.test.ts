import { describe, expect, it } from "vitest";
import { scheduledJobs } from "#server/platform/db/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { DAILY_JOB } from "./daily";
import { reconcile } from "./run";
import { reconciliationToday } from "./today";

const provider = { name: "sandbox" as const, listBalanceTransactions: async () => [] };
const at = (text: string) => new Date(text);

describe.each(ENGINES)("whether today is reconciled, on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;

  it("is not before today's run, with the job's next slot; then says when it ran, how many movements it compared and how many differences", async () => {
    const morning = at("2032-03-10T01:00:00Z");
    // No job row yet (a fresh database): the next slot of the daily time.
    expect(await reconciliationToday(db(), morning)).toEqual({ day: "2032-03-09", run: null, nextRunAt: at("2032-03-10T03:10:00Z") });

    // A run yesterday of the day before, and one today of another period, are not today's.
    await reconcile(db(), provider, { period: { from: at("2032-03-08T00:00:00Z"), to: at("2032-03-09T00:00:00Z") }, actor: { kind: "command-line" } }, () => at("2032-03-09T03:10:00Z"));
    await reconcile(db(), provider, { period: { from: at("2032-03-10T00:00:00Z"), to: at("2032-03-11T00:00:00Z") }, actor: { kind: "command-line" } }, () => at("2032-03-10T00:30:00Z"));
    await db().insert(scheduledJobs).values({ name: DAILY_JOB, nextRunAt: at("2032-03-10T03:10:00Z") });
    expect(await reconciliationToday(db(), morning)).toMatchObject({ run: null, nextRunAt: at("2032-03-10T03:10:00Z") });

    // Staff reconciling a week that holds yesterday count: yesterday was compared today.
    await reconcile(db(), provider, { period: { from: at("2032-03-03T00:00:00Z"), to: at("2032-03-10T00:00:00Z") }, actor: { kind: "command-line" } }, () => at("2032-03-10T02:00:00Z"));
    expect(await reconciliationToday(db(), at("2032-03-10T02:30:00Z"))).toEqual({
      day: "2032-03-09",
      run: { finishedAt: at("2032-03-10T02:00:00Z"), compared: 0, differences: 0 },
      nextRunAt: at("2032-03-10T03:10:00Z"),
    });
    // Tomorrow, that run is no longer today's.
    expect((await reconciliationToday(db(), at("2032-03-11T01:00:00Z"))).run).toBeNull();
  });
});
