import express from "express";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import type { Db } from "#server/platform/db/client";
import { paymentCallables } from "#server/features/functions/callables/index";
import type { FunctionContext } from "#server/features/functions/protocol";
import { functionsRouter } from "#server/features/functions/router";
import type { PaymentProvider } from "#server/providers/payments/port";
import { TEST_ORIGIN } from "./test-sandbox";

/** The app's origin in callable tests: the sandbox's pages live on it, and the callables answer only addresses there. */
export const CALLABLE_ORIGIN = TEST_ORIGIN;

export type Caller = FunctionContext["user"];
export type CallOptions = { as?: Caller; headers?: Record<string, string> };

/**
 * The SPEC §7.1 payment callables behind the real functions router (CSRF check
 * included, PUBLIC_ORIGIN allowed), on a loopback port. `call` sends one
 * call as `as` (a signed-in person, or null for a guest) and answers the HTTP
 * status and the JSON reply. Close the server after the block.
 */
export async function serveCallables(db: Db, provider: PaymentProvider) {
  let caller: Caller = null;
  const app = express();
  app.use(
    functionsRouter({
      functions: paymentCallables({ db, payments: provider, config: { PUBLIC_ORIGIN: CALLABLE_ORIGIN, PLATFORM_FEE_PERCENT: 0 } }),
      resolveUser: async () => caller,
      logger: pino({ level: "silent" }),
      allowedOrigins: [CALLABLE_ORIGIN],
    }),
  );
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    async call(name: string, data: unknown, options: CallOptions = {}): Promise<{ status: number; body: { result?: unknown; error?: { status: string; message: string; details?: unknown } } }> {
      caller = options.as ?? null;
      const reply = await fetch(`${url}/api/functions/${name}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...options.headers },
        body: JSON.stringify({ data }),
      });
      return { status: reply.status, body: await reply.json() };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A request another site's page made: the browser says so (SPEC's CSRF rule). */
export const CROSS_SITE = { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" };
