import { describe, expect, it } from "vitest";
import { failureLog, isDatabaseUnavailable, lostConnectionLog } from "./unavailable";

/** A logger that keeps what it was given, by level. */
function recordingLogger() {
  const lines: { level: string; message: string }[] = [];
  const at = (level: string) => (_object: object, message: string) => lines.push({ level, message });
  return { lines, logger: { info: at("info"), warn: at("warn"), error: at("error") } as never };
}

describe("a database outage", () => {
  it("is told from other failures by the driver's code or message, however deep the wrapping", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    expect(isDatabaseUnavailable(refused)).toBe(true);
    expect(isDatabaseUnavailable(new Error("Failed query: select 1", { cause: refused }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('relation "x" does not exist'), { code: "42P01" }))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined"))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });

  it("is logged by a loop once as it starts and once as it ends; any other failure every time, as an error", () => {
    const { lines, logger } = recordingLogger();
    let clock = 1_000;
    const failures = failureLog(logger, "email queue", "email queue could not be read", () => clock);
    const down = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    for (let retry = 0; retry < 25; retry++) failures.failed(down);
    clock = 21_000;
    failures.succeeded();
    failures.succeeded();
    failures.failed(new Error("a bug"));
    failures.failed(new Error("a bug"));
    expect(lines).toEqual([
      { level: "warn", message: "email queue: the database cannot be reached; waiting for it to come back" },
      { level: "info", message: "email queue: the database is back; carrying on" },
      { level: "error", message: "email queue could not be read" },
      { level: "error", message: "email queue could not be read" },
    ]);
  });

  it("is logged by the pool once when its idle connections are cut together, and again at the next cut", () => {
    const { lines, logger } = recordingLogger();
    let clock = 1_000;
    const lost = lostConnectionLog(logger, 60_000, () => clock);
    for (let connection = 0; connection < 10; connection++) lost(new Error("Connection terminated unexpectedly"));
    clock += 59_000;
    lost(new Error("Connection terminated unexpectedly"));
    clock += 2_000;
    lost(new Error("Connection terminated unexpectedly"));
    expect(lines).toEqual([
      { level: "warn", message: "database connections lost; the pool reconnects" },
      { level: "warn", message: "database connections lost; the pool reconnects" },
    ]);
  });
});
