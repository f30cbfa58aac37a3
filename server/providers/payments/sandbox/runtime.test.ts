import { describe, expect, it } from "vitest";
import type { AppContext } from "#server/main/context";
import { requireSandbox } from "#server/providers/payments/sandbox/pages/sandbox.server";
import { sandboxFor } from "./runtime";
import type { SandboxProvider } from "./provider";

const built = { name: "sandbox" } as SandboxProvider;
const context = (provider: "stripe" | "sandbox") =>
  ({ config: { PAYMENT_PROVIDER: provider }, sandbox: provider === "sandbox" ? built : null }) as unknown as AppContext;

describe("the sandbox in a running app", () => {
  it("is the one the composition root built, and there is none with Stripe", () => {
    expect(sandboxFor(context("sandbox"))).toBe(built);
    expect(() => sandboxFor(context("stripe"))).toThrow(/PAYMENT_PROVIDER=sandbox/);
  });

  it("serves its /sandbox pages only while it is the payment provider", () => {
    expect(requireSandbox(context("sandbox")).name).toBe("sandbox");
    let thrown: unknown;
    try {
      requireSandbox(context("stripe"));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ init: { status: 404 } });
  });
});
