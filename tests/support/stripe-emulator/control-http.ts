import type http from "node:http";
import type { EmulatorEvent } from "#tests/support/stripe-emulator/events";
import { readBody, send } from "#tests/support/stripe-emulator/respond";
import { CONTROL_NAMES, type ControlName, type EmulatorRuntime } from "#tests/support/stripe-emulator/runtime";

/** The control API over HTTP, for a test runner in another process (Playwright): POST /__emulator/<control> {"args": [...]}. */
export async function controlApi(runtime: EmulatorRuntime, req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
  const { control, emit, requests, webhooks } = runtime;
  const name = url.pathname.slice("/__emulator/".length);
  try {
    if (name === "health" && req.method === "GET") return send(res, 200, { ok: true });
    if (name === "calls" && req.method === "GET") {
      return send(res, 200, { requests: requests.map(({ params: _params, ...rest }) => rest), deliveries: webhooks.deliveries });
    }
    if (name === "webhook-url" && req.method === "POST") {
      webhooks.url = (JSON.parse(await readBody(req)) as { url?: string }).url;
      return send(res, 200, { url: webhooks.url ?? null });
    }
    if (name === "refund-status" && req.method === "POST") {
      const { status } = JSON.parse(await readBody(req)) as { status: "succeeded" | "pending" };
      runtime.setRefundStatus(status);
      return send(res, 200, { status });
    }
    if (req.method === "POST" && (CONTROL_NAMES as readonly string[]).includes(name)) {
      const { args = [] } = JSON.parse((await readBody(req)) || "{}") as { args?: unknown[] };
      const events = await emit((control[name as ControlName] as (...a: unknown[]) => EmulatorEvent[]).apply(control, args));
      return send(res, 200, { events });
    }
    send(res, 404, { error: `No control ${name}` });
  } catch (error) {
    send(res, 400, { error: error instanceof Error ? error.message : String(error) });
  }
}
