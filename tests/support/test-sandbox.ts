import { whyPayeeCannotBePaid } from "#server/domains/payments/checkout/payee-standing";
import { eq } from "drizzle-orm";
import { afterAll } from "vitest";
import type { Db } from "#server/platform/db/client";
import type { ConnectedAccountState, PaymentProvider } from "#server/providers/payments/port";
import { createSandboxProvider, type SandboxProvider } from "#server/providers/payments/sandbox/provider";
import { sandboxAccounts } from "#server/providers/payments/sandbox/schema";
import { signatureHeader, webhookSigningKey } from "#server/providers/payments/sandbox/signing";
import { TEST_SESSION_SECRET } from "./payments";
import type { TestDb } from "./databases";

/** The app's origin in domain tests: the sandbox's pages and links live on it. */
export const TEST_ORIGIN = "http://app.test";

/** A clock a test moves by hand; the sandbox reads it for expiries, links and signatures. */
export type TestClock = { now: Date };

/**
 * The domain tests' payment provider: the built-in sandbox on the test
 * database (migratedDatabase makes its tables), on a clock the test holds.
 * Its events are stored in its outbox as in the app; they go to a receiver
 * that keeps them (`sent`) instead of the webhook endpoint, since the tests
 * feed the handlers their events themselves.
 */
export function testSandbox(database: TestDb, clock: TestClock = { now: new Date() }) {
  const state: { sandbox: SandboxProvider | null; sent: unknown[] } = { sandbox: null, sent: [] };
  afterAll(() => state.sandbox?.close());
  return {
    clock,
    /** Made on first use, on the block's database (so after the hook that creates it). */
    get provider(): SandboxProvider {
      state.sandbox ??= createSandboxProvider({
        db: database.db,
        config: { PUBLIC_ORIGIN: TEST_ORIGIN },
        sessionSecret: TEST_SESSION_SECRET,
        now: () => clock.now,
        // The app's rule, as the composition root hands it in.
        whyPayeeCannotBePaid: (sessionId) => whyPayeeCannotBePaid(database.db, sessionId),
        fetch: async (_url, init) => {
          state.sent.push(JSON.parse(String(init?.body)));
          return new Response(null, { status: 204 });
        },
      });
      return state.sandbox;
    },
    /** The events the sandbox has delivered so far. */
    sent: state.sent,
  };
}

/**
 * Puts a sandbox account in a state its onboarding form does not reach by
 * itself (Stripe's test mode has such accounts too: details submitted, charges
 * still disabled while it is restricted).
 */
export async function setSandboxAccountState(db: Db, accountId: string, state: Partial<Omit<ConnectedAccountState, "accountId">>): Promise<void> {
  await db.update(sandboxAccounts).set(state).where(eq(sandboxAccounts.id, accountId));
}

type Method = { [K in keyof PaymentProvider]: PaymentProvider[K] extends (...args: never[]) => unknown ? K : never }[keyof PaymentProvider];

/**
 * The provider as seen across a network that is down for some calls: each
 * named method throws as a failed request would, until it is healed. Not a
 * fake of the provider: every other call goes to the real one.
 */
export function withOutage<P extends PaymentProvider>(provider: P) {
  const down = new Set<Method>();
  const proxied = new Proxy(provider, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (down.has(property as Method)) return Promise.reject(new Error(`provider unreachable: ${String(property)}`));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { provider: proxied, down };
}

/** The `Sandbox-Signature` header the test sandbox puts on a delivery of `body`, signed `secondsAgo` in the past (or with another app's secret). */
export function sandboxSignature(body: string, { secondsAgo = 0, sessionSecret = TEST_SESSION_SECRET, now = new Date() } = {}): string {
  return signatureHeader(webhookSigningKey(sessionSecret), body, Math.floor(now.getTime() / 1000) - secondsAgo);
}

// ---------------------------------------------------------------------------
// Watching and pacing the calls a domain makes to the provider (refunds,
// checkout limits, the webhook intake property). Wrappers like withOutage:
// every call still goes to the real sandbox.
// ---------------------------------------------------------------------------

import { sql } from "drizzle-orm";
import { sandboxPayments, sandboxRefunds } from "#server/providers/payments/sandbox/schema";

type FirstArgument<M extends Method> = Parameters<PaymentProvider[M]>[0];

/**
 * The provider with a log of the calls made to it, in order and whatever
 * their outcome, so a test can say "the provider was asked exactly once" —
 * which the provider's own records cannot tell from a repeat with the same
 * idempotency key. Wrap it around withOutage to log refused calls too.
 */
export function withCallLog<P extends PaymentProvider>(provider: P) {
  const calls: { method: Method; input: unknown }[] = [];
  const proxied = new Proxy(provider, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls.push({ method: property as Method, input: args[0] });
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  /** The inputs of the calls of `method` so far, in order. */
  const callsOf = <M extends Method>(method: M): FirstArgument<M>[] => calls.filter((call) => call.method === method).map((call) => call.input as FirstArgument<M>);
  return { provider: proxied, callsOf };
}

/**
 * The provider with the answers of `method` held on their way back until the
 * test lets them go: the call is done at the provider, and the test decides
 * what happens before the caller hears of it (other callers, a webhook that
 * comes first), by a promise it controls rather than a delay.
 */
export function withHeldAnswers<P extends PaymentProvider>(provider: P, method: Method) {
  let answered!: () => void;
  let release!: () => void;
  const arrived = new Promise<void>((resolve) => (answered = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const proxied = new Proxy(provider, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (property !== method || typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        const answer = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        answered();
        await released;
        return answer;
      };
    },
  });
  /** `answered`: the provider has answered a call (which now waits); `release` lets the answers through. */
  return { provider: proxied, answered: arrived, release };
}

/**
 * Ends a sandbox refund as Stripe's refunds that fail later end (its test
 * card 4000 0000 0000 5126): the refund failed and the money is back on the
 * payment, so it can be refunded again. The sandbox's own refunds succeed at
 * once, so a test of a failed refund puts one in this state.
 */
export async function failSandboxRefund(db: Db, refundId: string): Promise<void> {
  const [refund] = await db.update(sandboxRefunds).set({ status: "failed" }).where(eq(sandboxRefunds.id, refundId)).returning();
  if (!refund) throw new Error(`no sandbox refund ${refundId}`);
  await db.update(sandboxPayments).set({ amountRefunded: sql`${sandboxPayments.amountRefunded} - ${refund.amount}` }).where(eq(sandboxPayments.id, refund.paymentId));
}
