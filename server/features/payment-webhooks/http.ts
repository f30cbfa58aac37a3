import type { AppLoadContext } from "react-router";
import type { BodyLimitRule } from "#server/platform/http/body-limit";
import { httpStatusOf } from "#server/platform/errors";
import { OUTAGE_RETRY_AFTER_SECONDS } from "#server/platform/db/unavailable";
import { unsubscribeSigningKey } from "#server/domains/notifications/unsubscribe-token";
import { memberLinkKey } from "#server/domains/memberships/member-link";
import { webhookObserver } from "./metrics";
import { receivePaymentEvent } from "./intake";
import type { WebhookDeps } from "./types";

/** The most a webhook delivery may weigh (server/main/app.ts caps it before anything reads it). */
export const WEBHOOK_BODY_LIMIT = 256 * 1024;
export const WEBHOOK_PATH_PREFIX = "/api/payments/webhooks/";

/** The body cap of the webhook path (server/main/app.ts mounts it before anything reads a body). */
export const webhookBodyRule: BodyLimitRule = {
  prefix: WEBHOOK_PATH_PREFIX,
  limit: WEBHOOK_BODY_LIMIT,
  refuse: (_req, res) => void res.status(413).type("text/plain").send("Webhook body too large.\n"),
};


export function webhookDepsOf(context: Pick<AppLoadContext, "payments" | "mailer" | "config" | "logger" | "sessionSecret"> & Partial<Pick<AppLoadContext, "metrics">>): WebhookDeps {
  const { config } = context;
  return {
    onEvent: context.metrics ? webhookObserver(context.metrics) : undefined,
    provider: context.payments,
    mailer: context.mailer,
    logger: context.logger,
    site: { appName: config.APP_NAME, supportEmail: config.SUPPORT_EMAIL, publicOrigin: config.PUBLIC_ORIGIN, bioOrigin: config.BIO_ORIGIN },
    unsubscribeKey: unsubscribeSigningKey(context.sessionSecret),
    platformFeePercent: config.PLATFORM_FEE_PERCENT,
    memberLinkKey: memberLinkKey(context.sessionSecret),
  };
}

const text = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(`${body}\n`, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...headers } });

/** Providers only POST: any other method is told so (405 with Allow), as HTTP asks. */
export function webhookMethodNotAllowed(): Response {
  return new Response("Webhook deliveries are POST requests.\n", { status: 405, headers: { Allow: "POST", "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

/**
 * One delivery: the signature is checked over the exact bytes received (400,
 * and nothing is stored, if it fails), then the event is recorded and handled
 * once. 200 for handled, already handled or a type we do not act on; 500 when
 * the handler failed and 503 while the database is away, either of which makes
 * the provider deliver it again.
 */
export async function handleWebhookRequest(
  request: Request,
  providerParam: string | undefined,
  context: Pick<AppLoadContext, "payments" | "mailer" | "config" | "logger" | "db" | "sessionSecret"> & Partial<Pick<AppLoadContext, "metrics">>,
): Promise<Response> {
  const provider = context.payments;
  if (providerParam !== provider.name) return text(404, "No such webhook endpoint.");
  const rawBody = Buffer.from(await request.arrayBuffer());
  const parsed = provider.parseWebhook(rawBody, request.headers.get(provider.signatureHeader) ?? undefined);
  if (parsed.kind === "ERROR") return text(httpStatusOf(parsed.code), parsed.message);
  const { event } = parsed;
  if (!event) return text(200, "Ignored: not an event this endpoint acts on.");
  const result = await receivePaymentEvent(context.db, event, webhookDepsOf(context));
  if (result.kind === "ERROR" && result.code === "unavailable") return text(httpStatusOf(result.code), result.message, { "Retry-After": String(OUTAGE_RETRY_AFTER_SECONDS) });
  if (result.kind === "ERROR") return text(httpStatusOf(result.code), result.message);
  // Which event this delivery was (the payload and signature stay out of the log).
  context.logger.info({ provider: event.provider, eventId: event.eventId, type: event.type, outcome: result.outcome }, "payment event received");
  return text(200, result.outcome === "ALREADY_HANDLED" ? "Already handled." : "Handled.");
}
