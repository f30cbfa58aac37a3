import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { publicNotificationSchema } from "#server/domains/notifications/public-notification";
import { opportunityHeartedSchema } from "#server/domains/opportunities/hearted-webhooks";
import { publicPaymentSchema } from "#server/domains/payments/records/public-payment";
import { publicMembershipSchema } from "#server/domains/pro/public-membership";
import { membershipEventSchema } from "#server/domains/memberships/membership-notices";
import type { DealEventData } from "#server/domains/deals/deal-events";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "#isomorphic/webhook-events";
import { dealMessageSchema } from "./operations/deal-room";
import { dealSchema } from "./operations/deals";
import { webhookExample } from "./webhook-examples";

/**
 * Every deal event's `data` (server/domains/deals/deal-events.ts builds it): the deal as the
 * receiving account's `GET /deals/{dealId}` answers it, and which side that account is on.
 */
export const dealEventSchema = z
  .object({
    side: z.enum(["creator", "sponsor"]).meta({ description: "The side of the deal the account receiving this event is on." }),
    deal: dealSchema,
    message: dealMessageSchema.nullable().meta({ description: "`deal.message`: the new message (either side's, yours included); null for other events." }),
    deliverable: z
      .int()
      .min(0)
      .nullable()
      .meta({ description: "`deal.work_submitted` and `deal.changes_requested`: the deliverable's place in the accepted terms (`index` in `deal.work`); null for other events." }),
  })
  .meta({ id: "DealEvent", description: "A step of one of your deals, with the deal as it stands after it." });

// What the domain builds is what the document describes: a field added to one and not the other does not compile.
const dealEventDataIsDocumented: [DealEventData] extends [z.output<typeof dealEventSchema>] ? ([z.output<typeof dealEventSchema>] extends [DealEventData] ? true : false) : false = true;
void dealEventDataIsDocumented;

/**
 * What each webhook event's `data` is: the very schemas its producers build it by, so the
 * OpenAPI document's `webhooks` section (and the guide at /developers/webhooks) describes what
 * is sent. A type missing here does not compile.
 */
export const WEBHOOK_EVENT_DATA: Record<WebhookEventType, z.ZodType> = {
  "payment.succeeded": publicPaymentSchema,
  "payment.refunded": publicPaymentSchema,
  "payment.disputed": publicPaymentSchema,
  "pro.started": publicMembershipSchema,
  "pro.ended": publicMembershipSchema,
  "membership.created": membershipEventSchema,
  "membership.renewed": membershipEventSchema,
  "membership.payment_failed": membershipEventSchema,
  "membership.cancelled": membershipEventSchema,
  "membership.ended": membershipEventSchema,
  "opportunity.hearted": opportunityHeartedSchema,
  "notification.created": publicNotificationSchema,
  "deal.proposed": dealEventSchema,
  "deal.countered": dealEventSchema,
  "deal.agreed": dealEventSchema,
  "deal.declined": dealEventSchema,
  "deal.withdrawn": dealEventSchema,
  "deal.funded": dealEventSchema,
  "deal.work_submitted": dealEventSchema,
  "deal.changes_requested": dealEventSchema,
  "deal.completed": dealEventSchema,
  "deal.cancelled": dealEventSchema,
  "deal.disputed": dealEventSchema,
  "deal.dispute_decided": dealEventSchema,
  "deal.message": dealEventSchema,
};

/** The component id each event's `data` schema is published under (its own `meta({ id })`). */
function componentIdOf(schema: z.ZodType): string {
  const id = schema.meta()?.id;
  if (typeof id !== "string") throw new Error("A webhook event's data schema needs a meta id");
  return id;
}

/** The data schemas for `components.schemas`; registered there, they are drawn as we send them (output). */
export function webhookDataComponents(): Record<string, z.ZodType> {
  return Object.fromEntries(Object.values(WEBHOOK_EVENT_DATA).map((schema) => [componentIdOf(schema), schema]));
}

/**
 * The body of one event type's deliveries: Standard Webhooks' `{ type, timestamp, data }`. Written
 * as JSON Schema rather than zod because the document would otherwise take a request body for
 * input and publish a second, looser copy of each shared schema (`PaymentOutput` beside `Payment`).
 */
function payloadSchema(type: WebhookEventType) {
  return {
    type: "object" as const,
    properties: {
      type: { type: "string" as const, const: type },
      timestamp: { type: "string" as const, format: "date-time", description: "When it happened (ISO 8601)." },
      data: { $ref: `#/components/schemas/${componentIdOf(WEBHOOK_EVENT_DATA[type])}` },
    },
    required: ["type", "timestamp", "data"],
    additionalProperties: false,
  };
}

const SIGNATURE_HEADERS = z.object({
  "webhook-id": z.string().meta({ description: "The event's id (`msg_…`), the same on every retry and resend: handle each once." }),
  "webhook-timestamp": z.string().regex(/^\d+$/).meta({ description: "When this attempt was sent, in seconds since 1970." }),
  "webhook-signature": z.string().meta({ description: "`v1,` and a base64 HMAC-SHA256 of `id.timestamp.body` under the endpoint's secret; two, space-separated, while a secret is rotated." }),
});

/** The OpenAPI 3.1 `webhooks` section: one POST per event type, as an endpoint receives it. */
export function webhooksSection(): ZodOpenApiPathsObject {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((event) => [
      event.type,
      {
        post: {
          operationId: `webhook_${event.type.replace(".", "_")}`,
          summary: event.label,
          description: event.description,
          tags: ["Webhooks"],
          requestParams: { header: SIGNATURE_HEADERS },
          requestBody: { required: true, content: { "application/json": { schema: payloadSchema(event.type), example: webhookExample(event.type) } } },
          responses: { "200": { description: "Any 2xx answer, within 10 seconds, counts as delivered; anything else is retried." } },
        },
      },
    ]),
  );
}
