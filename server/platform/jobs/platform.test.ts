import pino from "pino";
import { describe, expect, it } from "vitest";
import type { Db } from "#server/platform/db/client";
import { createJobPlatform } from "./platform";

const logger = pino({ level: "silent" });
// Nothing here reaches the database: no periodic job is scheduled.
const db = {} as Db;

describe("the job platform", () => {
  it("starts each worker as it is registered, and on close stops them newest first, then writes every buffer a last time", async () => {
    const said: string[] = [];
    const jobs = createJobPlatform({ db, logger });
    const worker = (name: string) => ({ start: () => void said.push(`start ${name}`), close: async () => void said.push(`close ${name}`) });
    jobs.work("mail", worker("mail"));
    jobs.flush("views", { flushEveryMs: 60_000, flush: async () => void said.push("flush views"), close: async () => void said.push("close views") });
    jobs.work("webhooks", worker("webhooks"));
    expect(said).toEqual(["start mail", "start webhooks"]);
    await jobs.close();
    expect(said).toEqual(["start mail", "start webhooks", "close webhooks", "close mail", "close views"]);
    // Closed: nothing new starts, and a second close does nothing.
    expect(() => jobs.work("late", worker("late"))).toThrow(/closed/);
    await jobs.close();
    expect(said).toHaveLength(5);
  });

  it("flushes a buffer on its own cadence, and a flush that fails does not stop the next", async () => {
    let flushes = 0;
    const jobs = createJobPlatform({ db, logger });
    jobs.flush("search log", {
      flushEveryMs: 20,
      flush: async () => {
        flushes += 1;
        if (flushes === 1) throw new Error("database away");
      },
      close: async () => {},
    });
    await expect.poll(() => flushes, { timeout: 2_000 }).toBeGreaterThanOrEqual(3);
    await jobs.close();
    const after = flushes;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(flushes).toBe(after);
  });

  it("schedules the periodic jobs once per process", () => {
    const jobs = createJobPlatform({ db, logger });
    jobs.schedule([], { tickMs: 60_000 });
    expect(() => jobs.schedule([])).toThrow(/once/);
    return jobs.close();
  });
});
