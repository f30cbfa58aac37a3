import { handleWebhookRequest } from "#server/payments/webhooks/http";
import type { Route } from "./+types/payment-webhooks";

/** POST /api/payments/webhooks/:provider — signed deliveries from Stripe or the sandbox (server/payments/webhooks/). */
export function action({ request, params, context }: Route.ActionArgs) {
  if (request.method !== "POST") return new Response(null, { status: 405, headers: { Allow: "POST" } });
  return handleWebhookRequest(request, params.provider, context);
}
