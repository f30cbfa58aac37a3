import { invalidRequest, missing } from "#tests/support/stripe-emulator/errors";
import type { EmulatorEvent } from "#tests/support/stripe-emulator/events";
import { str, strings, type FormObject } from "#tests/support/stripe-emulator/form";
import type { PaymentIntentInput } from "#tests/support/stripe-emulator/objects";
import type { EmulatorStore } from "#tests/support/stripe-emulator/store";

/** What every API handler shares: its call, its result, the emulator's state, and small parameter readers. */

/** One API call: its parameters (body or query), the ids in its path, and where the emulator's own pages are. */
export type ApiCall = { params: FormObject; ids: string[]; baseUrl: string; idempotencyKey: string | null };
export type ApiResult = { status: number; body: unknown; events?: EmulatorEvent[] };
export type ApiContext = {
  store: EmulatorStore;
  /** What a checkout will pay out once completed (not part of the session object Stripe returns). */
  checkoutPayments: Map<string, PaymentIntentInput>;
  /**
   * What a subscription checkout will start once completed: the price, `subscription_data.metadata`, and for a
   * subscription paying a connected account (a membership) `subscription_data.transfer_data.destination` and
   * `application_fee_percent`.
   */
  checkoutSubscriptions: Map<string, { priceId: string; metadata: Record<string, string>; destination?: string | null; applicationFeePercent?: number | null }>;
  /** Customers whose card is declined from now on (renewals fail), set through the control API. */
  failingCards: Set<string>;
  /** Status new refunds start in: cards refund at once ("succeeded"); "pending" to test a refund settling later. */
  refundStatus: () => "succeeded" | "pending";
};
export type Handler = (context: ApiContext, call: ApiCall) => ApiResult;

export const ok = (body: unknown, events?: EmulatorEvent[]): ApiResult => ({ status: 200, body, events });

export function integer(params: FormObject, param: string, ...path: string[]): number | undefined {
  const raw = str(params, ...path);
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) throw invalidRequest(`Invalid integer: ${raw}`, { param });
  return Number(raw);
}

export function get<T>(map: Map<string, T>, resource: string, id: string | undefined): T {
  const found = id ? map.get(id) : undefined;
  if (!found) throw missing(resource, id ?? "");
  return found;
}

/** A list's `limit`: 10 unless asked, 1 to 100, as at Stripe. */
export const limitOf = (params: FormObject) => Math.min(100, Math.max(1, integer(params, "limit", "limit") ?? 10));

export const retrieve =
  <T>(pick: (store: EmulatorStore) => Map<string, T>, resource: string): Handler =>
  ({ store }, { ids, params }) =>
    ok(store.expanded(get(pick(store), resource, ids[0]), strings(params, "expand")));

export type Route = { method: "GET" | "POST" | "DELETE"; pattern: string; regex: RegExp; handler: Handler };

export function route(method: Route["method"], pattern: string, handler: Handler): Route {
  const regex = new RegExp(`^${pattern.replace(/:\w+/g, "([^/]+)")}$`);
  return { method, pattern, regex, handler };
}

