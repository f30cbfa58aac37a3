import { describe, expect, it } from "vitest";
import { DEFAULT_RETRY_SCHEDULE_MS, retryDelayAfter } from "./retry";

describe("the retry schedule", () => {
  it("keeps trying for at least a day, with growing waits, then gives up", () => {
    const total = DEFAULT_RETRY_SCHEDULE_MS.reduce((sum, wait) => sum + wait, 0);
    expect(total).toBeGreaterThanOrEqual(24 * 3_600_000);
    expect([...DEFAULT_RETRY_SCHEDULE_MS]).toEqual([...DEFAULT_RETRY_SCHEDULE_MS].sort((a, b) => a - b));
    expect(retryDelayAfter(1)).toBe(5_000);
    expect(retryDelayAfter(DEFAULT_RETRY_SCHEDULE_MS.length)).toBe(10 * 3_600_000);
    expect(retryDelayAfter(DEFAULT_RETRY_SCHEDULE_MS.length + 1)).toBeNull();
    expect(retryDelayAfter(2, [1, 2])).toBe(2);
  });
});
