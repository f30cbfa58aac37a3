import http from "node:http";
import type { AddressInfo } from "node:net";
import { findRoute, type ApiContext } from "#tests/support/stripe-emulator/api";
import { EmulatorControl } from "#tests/support/stripe-emulator/control";
import { StripeApiError } from "#tests/support/stripe-emulator/errors";
import { WebhookSender, type Delivery, type EmulatorEvent, type SignedDelivery } from "#tests/support/stripe-emulator/events";
import { parseForm, type FormObject } from "#tests/support/stripe-emulator/form";
import { IdempotencyKeys } from "#tests/support/stripe-emulator/idempotency";
import { controlApi } from "#tests/support/stripe-emulator/control-http";
import { hostedPages } from "#tests/support/stripe-emulator/hosted";
import { readBody, send } from "#tests/support/stripe-emulator/respond";
import { CONTROL_NAMES, type ControlName, type EmulatorRuntime } from "#tests/support/stripe-emulator/runtime";
import { EmulatorStore } from "#tests/support/stripe-emulator/store";

export type EmulatorOptions = {
  port?: number;
  /** The only key it accepts (401 otherwise). */
  apiKey?: string;
  webhookSecret?: string;
  /** Signs Connect events (those naming an `account`) when set, as a separate Connect endpoint would. */
  connectWebhookSecret?: string;
  /** Where signed events are posted (the app's /api/payments/webhooks/stripe); unset keeps them for `sign`. */
  webhookUrl?: string;
  /** Each API call holds this long before it runs: concurrent calls overlap, as they do at Stripe. */
  latencyMs?: number;
};

export type RequestRecord = { method: string; endpoint: string; path: string; idempotencyKey: string | null; stripeVersion: string | null; params: FormObject; status: number; replayed: boolean };

type Controls = { [K in ControlName]: (...args: Parameters<EmulatorControl[K]>) => Promise<EmulatorEvent[]> };

export type StripeEmulator = Controls & {
  /** http://127.0.0.1:PORT, for STRIPE_API_URL. */
  url: string;
  apiKey: string;
  webhookSecret: string;
  connectWebhookSecret: string | undefined;
  webhookUrl: string | undefined;
  store: EmulatorStore;
  /** Every event made so far, oldest first, and every delivery attempted. */
  events: EmulatorEvent[];
  deliveries: Delivery[];
  requests: RequestRecord[];
  /** Calls that reached an endpoint, e.g. `calls("POST /v1/refunds")`, replays and refusals included. */
  calls(endpoint: string): number;
  /** Calls made with one idempotency key. */
  callsWithKey(key: string): number;
  sign(event: EmulatorEvent, options?: { timestamp?: number; secret?: string }): SignedDelivery;
  deliver(events: EmulatorEvent[]): Promise<Delivery[]>;
  /** Status of refunds made from now on: "succeeded" (cards, the default) or "pending" (settled later with `settleRefund`). */
  setRefundStatus(status: "succeeded" | "pending"): void;
  /** Resolves once events made by API calls (refunds) have been delivered. */
  idle(): Promise<void>;
  close(): Promise<void>;
};


const canonical = (value: unknown): string =>
  value && typeof value === "object"
    ? Array.isArray(value)
      ? `[${value.map(canonical).join(",")}]`
      : `{${Object.keys(value)
          .sort()
          .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
          .join(",")}}`
    : JSON.stringify(value);

/**
 * A Stripe API emulator on loopback for the endpoints the product uses. The
 * real `stripe` SDK talks to it (host/port/protocol options), so tests cover
 * the SDK's encoding, headers, retries and errors as well as ours.
 */
export async function startStripeEmulator(options: EmulatorOptions = {}): Promise<StripeEmulator> {
  const apiKey = options.apiKey ?? "sk_test_emulator0000000000000000";
  const webhookSecret = options.webhookSecret ?? "whsec_emulator0000000000000000";
  const store = new EmulatorStore();
  const context: ApiContext = { store, checkoutPayments: new Map(), checkoutSubscriptions: new Map(), failingCards: new Set(), refundStatus: () => refundStatus };
  let refundStatus: "succeeded" | "pending" = "succeeded";
  const control = new EmulatorControl(context);
  const webhooks = new WebhookSender({ secret: webhookSecret, connectSecret: options.connectWebhookSecret, url: options.webhookUrl });
  const keys = new IdempotencyKeys();
  const requests: RequestRecord[] = [];
  const pendingDeliveries = new Set<Promise<unknown>>();
  let baseUrl = "";

  /** Records events and delivers them; control calls wait for delivery, API calls do not (Stripe's webhooks are asynchronous). */
  async function emit(events: EmulatorEvent[]): Promise<EmulatorEvent[]> {
    events.forEach((event) => webhooks.record(event));
    await webhooks.deliver(events);
    return events;
  }

  function emitLater(events: EmulatorEvent[]) {
    const delivery = emit(events).finally(() => pendingDeliveries.delete(delivery));
    pendingDeliveries.add(delivery);
  }

  function authorised(req: http.IncomingMessage): StripeApiError | null {
    const header = req.headers.authorization ?? "";
    const given = /^Bearer (.+)$/.exec(header)?.[1] ?? (/^Basic (.+)$/.exec(header) ? Buffer.from(header.slice(6), "base64").toString().split(":")[0] : undefined);
    if (!given) {
      return new StripeApiError(401, { type: "invalid_request_error", message: "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY')." });
    }
    if (given !== apiKey) {
      return new StripeApiError(401, { type: "invalid_request_error", message: `Invalid API Key provided: ${given.slice(0, 8)}${"*".repeat(Math.max(0, given.length - 12))}${given.slice(-4)}` });
    }
    return null;
  }

  async function api(req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
    const method = req.method ?? "GET";
    const body = method === "POST" ? await readBody(req) : url.search.slice(1);
    const found = findRoute(method, url.pathname);
    const idempotencyKey = method === "POST" ? ((req.headers["idempotency-key"] as string | undefined) ?? null) : null;
    const record: RequestRecord = {
      method,
      endpoint: found ? `${method} ${found.route.pattern}` : `${method} ${url.pathname}`,
      path: url.pathname,
      idempotencyKey,
      stripeVersion: (req.headers["stripe-version"] as string | undefined) ?? null,
      params: {},
      status: 0,
      replayed: false,
    };
    requests.push(record);
    const answer = (status: number, payload: unknown, headers?: Record<string, string>) => {
      record.status = status;
      send(res, status, payload, headers);
    };
    let running = false;
    try {
      const denied = authorised(req);
      if (denied) throw denied;
      if (!found) throw new StripeApiError(404, { type: "invalid_request_error", message: `Unrecognized request URL (${method}: ${url.pathname}).` });
      record.params = parseForm(body);
      if (idempotencyKey) {
        const replay = keys.begin(idempotencyKey, `${record.endpoint} ${canonical(record.params)}`);
        if (replay) {
          record.replayed = true;
          return answer(replay.status, replay.body, { "Idempotent-Replayed": "true", "Idempotency-Key": idempotencyKey });
        }
        running = true;
      }
      if (options.latencyMs) await new Promise((resolve) => setTimeout(resolve, options.latencyMs));
      const result = found.route.handler(context, { params: record.params, ids: found.ids, baseUrl, idempotencyKey });
      if (running) keys.finish(idempotencyKey!, { status: result.status, body: result.body });
      running = false;
      answer(result.status, result.body, idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {});
      if (result.events?.length) emitLater(result.events);
    } catch (error) {
      if (running) keys.finish(idempotencyKey!, null);
      if (error instanceof StripeApiError) return answer(error.status, { error: error.body });
      answer(500, { error: { type: "api_error", message: error instanceof Error ? error.message : String(error) } });
    }
  }

  const runtime: EmulatorRuntime = {
    store,
    context,
    control,
    webhooks,
    requests,
    emit,
    setRefundStatus: (status) => {
      refundStatus = status;
    },
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://emulator");
    const handle = async () => {
      if (url.pathname.startsWith("/v1/")) return api(req, res, url);
      if (url.pathname.startsWith("/__emulator/")) return controlApi(runtime, req, res, url);
      if (!(await hostedPages(runtime, req, res, url))) res.writeHead(404, { "Content-Type": "text/plain" }).end("Not found");
    };
    handle().catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, { error: { type: "api_error", message: String(error) } });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const controls = Object.fromEntries(
    CONTROL_NAMES.map((name) => [name, (...args: unknown[]) => emit((control[name] as (...a: unknown[]) => EmulatorEvent[]).apply(control, args))]),
  ) as Controls;

  return {
    ...controls,
    url: baseUrl,
    apiKey,
    webhookSecret,
    connectWebhookSecret: options.connectWebhookSecret,
    get webhookUrl() {
      return webhooks.url;
    },
    set webhookUrl(url: string | undefined) {
      webhooks.url = url;
    },
    store,
    events: webhooks.events,
    deliveries: webhooks.deliveries,
    requests,
    calls: (endpoint) => requests.filter((request) => request.endpoint === endpoint).length,
    callsWithKey: (key) => requests.filter((request) => request.idempotencyKey === key).length,
    sign: (event, signOptions) => webhooks.sign(event, signOptions),
    deliver: (events) => webhooks.deliver(events),
    setRefundStatus(status) {
      refundStatus = status;
    },
    async idle() {
      while (pendingDeliveries.size > 0) await Promise.all(pendingDeliveries);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}


