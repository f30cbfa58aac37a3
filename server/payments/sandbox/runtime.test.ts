import { describe, expect, it } from "vitest";
import type { AppContext } from "#server/http/context";
import { requireSandbox } from "#server/payments/sandbox/pages/sandbox.server";
import { closeSandbox, sandboxFor } from "./runtime";

const context = (provider: "stripe" | "sandbox") =>
  ({ db: {}, config: { PAYMENT_PROVIDER: provider, PUBLIC_ORIGIN: "http://app.test" }, sessionSecret: "a-session-secret-of-at-least-32-characters" }) as unknown as AppContext;

describe("the sandbox in a running app", () => {
  it("is one per database in a process, and a new one after it was closed", async () => {
    const app = context("sandbox");
    const first = sandboxFor(app);
    expect(sandboxFor(app)).toBe(first);
    expect(sandboxFor({ ...app, db: {} as AppContext["db"] })).not.toBe(first);
    await closeSandbox(app.db);
    expect(sandboxFor(app)).not.toBe(first);
    await closeSandbox(app.db);
  });

  it("serves its /sandbox pages only while it is the payment provider", async () => {
    expect(requireSandbox(context("sandbox")).name).toBe("sandbox");
    let thrown: unknown;
    try {
      requireSandbox(context("stripe"));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ init: { status: 404 } });
    await closeSandbox(context("sandbox").db);
  });
});
