import { handleWebhookRequest, webhookMethodNotAllowed } from "#server/features/payment-webhooks/http";
import type { Route } from "./+types/payment-webhooks";

/** GET or HEAD on a webhook address (a curious browser, a probe): 405 naming the one method it takes, never a server error. */
export function loader() {
  return webhookMethodNotAllowed();
}

/** POST /api/payments/webhooks/:provider — signed deliveries from Stripe or the sandbox (server/features/payment-webhooks/). */
export function action({ request, params, context }: Route.ActionArgs) {
  if (request.method !== "POST") return webhookMethodNotAllowed();
  return handleWebhookRequest(request, params.provider, context);
}
