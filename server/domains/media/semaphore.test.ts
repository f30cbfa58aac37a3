import { describe, expect, it } from "vitest";
import { createSemaphore } from "./semaphore";

describe("createSemaphore", () => {
  it("never lets more than its limit run, takes waiters in order, and goes on after a failure", async () => {
    const gate = createSemaphore(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const task = (n: number) =>
      gate.run(async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        order.push(n);
        if (n === 3) throw new Error("boom");
        return n;
      });
    const results = await Promise.allSettled([1, 2, 3, 4, 5, 6, 7, 8].map(task));
    expect(most).toBe(2);
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(1);
    expect(order.indexOf(8)).toBeGreaterThan(order.indexOf(3));
    expect(gate.waiting).toBe(0);
  });
});
