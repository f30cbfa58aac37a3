import { z } from "zod";
import { refusal, success } from "#server/platform/errors";
import { publicPaymentSchema, publicPaymentSummarySchema, toPublicPayment, toPublicPaymentSummary } from "#server/domains/payments/records/public-payment";
import { listSponsorSessionsAfter, STATUS_FILTERS } from "#server/domains/payments/records/sponsor-sessions";
import { defineApiOperation, type AnyApiOperation } from "#server/features/api/operation";
import { apiOperationOf } from "#server/features/api/operation-door";
import { readPaymentInfo } from "#server/features/operations/payments/payment-info";
import { refundPayment } from "#server/features/operations/payments/refund";
import { sponsorSessionIdSchema } from "#server/features/operations/payments/payment-input";
import { decodeCursor, encodeCursor, pageOf, pageQuery } from "#server/features/api/paging";

const TAG = "Payments";

// The operations' own id schema: a path id they would refuse is refused as no such payment before they run.
const paymentPath = z.object({ id: sponsorSessionIdSchema.meta({ description: "The payment's id (`ss_…`)." }) });

const listQuery = pageQuery.extend({
  status: z
    .enum(["all", ...STATUS_FILTERS])
    .default("all")
    .meta({
      description: "all (the default): every payment where money arrived — completed, refunded and disputed. completed, refunded: those only. pending: checkouts never paid (open, failed or expired).",
    }),
});

// The keyset of the last payment shown: its time in microseconds and its id (server/domains/payments/records/sponsor-sessions.ts).
const keysetShape = z.object({ t: z.string().regex(/^\d{1,17}$/), id: z.string().min(1).max(100) });

const refundSchema = z
  .object({
    paymentId: z.string(),
    status: z.enum(["pending", "succeeded"]).meta({ description: "pending until the provider confirms; the payment's status turns refunded then." }),
    alreadyRequested: z.boolean().meta({ description: "True when this payment's refund was asked for before (by you, on the site, or by an earlier call): nothing new was asked of the provider." }),
  })
  .meta({ id: "Refund", description: "Where the payment's refund stands." });

export const paymentOperations: AnyApiOperation[] = [
  defineApiOperation({
    id: "listPayments",
    method: "get",
    path: "/payments",
    tag: TAG,
    summary: "List payments you received",
    description: "Payments sponsors made to you, newest first, as on My Sponsorships.",
    scope: "payments:read",
    query: listQuery,
    success: { status: 200, description: "A page of payments.", schema: pageOf(publicPaymentSummarySchema, "PaymentPage") },
    // invalid_cursor: a cursor that is not one of ours.
    refusals: ["invalid-argument"],
    async handle({ caller, query, deps }) {
      const after = query.cursor === undefined ? null : decodeCursor(query.cursor, keysetShape);
      if (after === null && query.cursor !== undefined) return refusal("invalid-argument", "INVALID_CURSOR", "This cursor is not one of ours. Start again from the first page.");
      const page = await listSponsorSessionsAfter(deps.db, caller.uid, { status: query.status, pageSize: query.limit, after: after && { createdMicros: after.t, id: after.id } });
      return success({
        body: {
          data: page.sessions.map(toPublicPaymentSummary),
          nextCursor: page.next ? encodeCursor({ t: page.next.createdMicros, id: page.next.id }) : null,
        },
      });
    },
  }),
  apiOperationOf(readPaymentInfo, {
    id: "getPayment",
    method: "get",
    path: "/payments/{id}",
    tag: TAG,
    summary: "Read a payment",
    description: "One payment to you with its figures (gross, fee, net), refund and dispute, as its Payment info page shows it.",
    scope: "payments:read",
    params: paymentPath,
    success: { status: 200, description: "The payment.", schema: publicPaymentSchema },
    input: ({ params }) => ({ sponsorSessionId: params.id }),
    answer: ({ info }) => toPublicPayment(info),
  }),
  apiOperationOf(refundPayment, {
    id: "refundPayment",
    method: "post",
    path: "/payments/{id}/refund",
    tag: TAG,
    summary: "Refund a payment",
    description:
      "Refunds a completed payment in full, as the Refund button does: one refund at the provider however often it is asked. " +
      "Asking again for a payment whose refund was asked for answers where that refund stands (`alreadyRequested: true`). " +
      "Send an `Idempotency-Key` to retry safely: a retry with the same key gets the first answer again (`Idempotent-Replayed: true`). " +
      "Refusals: `not_refundable` (409, the payment is not completed), `refund_declined` (409, the provider said no), `unavailable` (503, the provider did not answer: retry later).",
    scope: "payments:write",
    params: paymentPath,
    idempotent: true,
    success: { status: 200, description: "The refund was asked for (or had been).", schema: refundSchema },
    input: ({ params }) => ({ sponsorSessionId: params.id }),
    answer: (refunded, { params }) => ({ paymentId: params.id, status: refunded.status, alreadyRequested: refunded.alreadyRequested }),
  }),
];
