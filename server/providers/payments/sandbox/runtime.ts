import type { SandboxProvider } from "./provider";

/**
 * The sandbox the composition root built (server/main/composition-root.ts), for its /sandbox
 * pages and the test hooks: there is one only while the sandbox is the payment provider.
 */
export function sandboxFor(context: { sandbox: SandboxProvider | null }): SandboxProvider {
  if (!context.sandbox) throw new Error("The payment sandbox runs only with PAYMENT_PROVIDER=sandbox");
  return context.sandbox;
}
