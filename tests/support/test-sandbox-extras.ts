import crypto from "node:crypto";
import type { Db } from "#server/platform/db/client";
import type { PaymentProvider } from "#server/providers/payments/port";
import { payProCheckout } from "#server/providers/payments/sandbox/pro-pay";
import type { SandboxProvider } from "#server/providers/payments/sandbox/provider";
import type { ProPlanKey } from "#isomorphic/pro-plans";
import { PRO_PRICE_SPECS } from "#server/domains/pro/prices";
import { PAYING_CARD } from "#tests/support/payments";
import { TEST_ORIGIN } from "#tests/support/test-sandbox";

type Method = { [K in keyof PaymentProvider]: PaymentProvider[K] extends (...args: never[]) => unknown ? K : never }[keyof PaymentProvider];
type FirstArg<P, K extends keyof P> = P[K] extends (first: infer A, ...rest: never[]) => unknown ? A : never;

/**
 * The provider with every call written down before it goes through, so a
 * test can say "the provider saw exactly one refund, with this key": `calls`
 * holds each method's first arguments, `order` the methods in the order they
 * were called. Not a fake: each call still goes to the real provider.
 */
export function recordingCalls<P extends PaymentProvider>(provider: P) {
  const calls = {} as { [K in Method]: FirstArg<P, K>[] };
  const order: { method: Method; input: unknown }[] = [];
  const recorded = new Proxy(provider, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const method = property as Method;
        ((calls[method] ??= []) as unknown[]).push(args[0]);
        order.push({ method, input: args[0] });
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const seen = <K extends Method>(method: K): FirstArg<P, K>[] => calls[method] ?? [];
  return { provider: recorded, seen, order };
}

/**
 * The customer buys `plan` at the sandbox as a person does: a hosted Pro
 * checkout paid with Stripe's 4242 test card, on the sandbox's clock. The
 * sandbox then holds the subscription (or the Limitless purchase) that
 * readProState reports; the product learns of it as it would (a refresh or
 * the delivered events).
 */
export async function buyProAtSandbox(db: Db, sandbox: SandboxProvider, { customerId, uid, plan }: { customerId: string; uid: string; plan: ProPlanKey }): Promise<void> {
  const prices = await sandbox.ensureProPrices(PRO_PRICE_SPECS);
  const spec = PRO_PRICE_SPECS.find((s) => s.plan === plan)!;
  const { checkoutId } = await sandbox.createProCheckout({
    idempotencyKey: `pro_checkout_test_${crypto.randomUUID()}`,
    customerId,
    uid,
    plan,
    priceId: prices[plan],
    mode: spec.interval === null ? "payment" : "subscription",
    successUrl: `${TEST_ORIGIN}/app/pro?checkout=success`,
    cancelUrl: `${TEST_ORIGIN}/app/pro?checkout=cancelled`,
  });
  const paid = await payProCheckout(db, checkoutId, PAYING_CARD, sandbox.now());
  if (paid.kind !== "SUCCESS" || paid.outcome !== "PAID") throw new Error(`the sandbox did not take the Pro payment: ${JSON.stringify(paid)}`);
}
