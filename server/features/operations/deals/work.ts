import type { Logger } from "pino";
import { z } from "zod";
import { readDeal } from "#server/domains/deals/read";
import { releaseDeal } from "#server/domains/deals/release";
import { reviewDeliverable as reviewDeliverableOf, submitDeliverable as submitDeliverableOf } from "#server/domains/deals/work";
import { refusal, success } from "#server/platform/errors";
import type { PaymentProvider } from "#server/providers/payments/port";
import { defineOperation, type Answer, type Operation, type Who_ } from "#server/features/operations/operation";
import { dealIdSchema, defineDealOperation, tellingDeps, type DealDeps } from "./deal-operation";

/**
 * What the review uses besides a deal's services: the provider that pays the creator when the
 * last approval makes the deal due, and a logger for a release left to the sweep.
 */
export type DealWorkDeps = DealDeps & { payments: Pick<PaymentProvider, "createTransfer">; logger: Pick<Logger, "warn"> };

/** defineOperation for an operation that uses DealWorkDeps. */
function defineDealWorkOperation<Input extends z.ZodType, Who extends Who_, Output extends Answer>(operation: Operation<Input, Who, Output, DealWorkDeps>) {
  return defineOperation(operation);
}

// Any whole number: one that is no deliverable of the accepted terms is answered as the domain answers it.
const deliverableSchema = z.int({ error: "deliverable must be the deliverable's place in the terms, from 0." });

/**
 * The work on one of the caller's deals, deliverable by deliverable, as the deal page shows it:
 * `GET /api/v1/deals/{dealId}/work` (the page reads it with the deal, `readDeal`). Empty until the
 * deal is booked; anyone else's deal is not-found.
 */
export const readDealWork = defineDealOperation({
  name: "readDealWork",
  who: "account-holder",
  input: z.object({ dealId: dealIdSchema }),
  refusals: ["not-found"],
  call: async ({ caller, input, deps }) => {
    const found = await readDeal(deps.db, caller.uid, input.dealId);
    if (!found) return refusal("not-found", "NOT_FOUND", "There is no such deal.");
    return success({ dealId: found.view.id, state: found.view.state, side: found.view.side, deliverables: found.view.work ?? [] });
  },
});

/**
 * The creator hands in a deliverable with where it went live: the deal page's work form
 * (app/routes/deals/deal-action.server.ts, `intent=submit`) and
 * `POST /api/v1/deals/{dealId}/work/{deliverable}/submissions`. Refused as the domain refuses
 * (server/domains/deals/work.ts): anyone else's deal or no such deliverable is not-found, the
 * sponsor is not the one to hand in, and only a booked deal's work that is not waiting or approved.
 */
export const submitDeliverable = defineDealOperation({
  name: "submitDeliverable",
  who: "account-holder",
  input: z.object({
    dealId: dealIdSchema,
    deliverable: deliverableSchema,
    liveUrl: z.string({ error: "liveUrl must be a string." }),
    note: z.string({ error: "note must be a string." }).default(""),
  }),
  refusals: ["not-found", "aborted", "invalid-argument"],
  call: ({ caller, input, deps }) => submitDeliverableOf(deps.db, tellingDeps(deps), { uid: caller.uid, ...input }),
});

export const reviewSchema = z.discriminatedUnion(
  "verdict",
  [z.object({ verdict: z.literal("approve") }), z.object({ verdict: z.literal("changes"), note: z.string({ error: "note must be a string." }) })],
  { error: "verdict must be approve or changes." },
);

/**
 * The sponsor approves a handed-in deliverable or asks for changes with a note: the deal page's
 * review buttons (`intent=approve`, `intent=changes`) and
 * `POST /api/v1/deals/{dealId}/work/{deliverable}/review`. The approval that leaves nothing
 * unapproved makes the deal due its release, which is made now, or by the sweep if the provider is slow.
 */
export const reviewDeliverable = defineDealWorkOperation({
  name: "reviewDeliverable",
  who: "account-holder",
  input: z.object({ dealId: dealIdSchema, deliverable: deliverableSchema, review: reviewSchema }),
  refusals: ["not-found", "aborted", "invalid-argument"],
  call: async ({ caller, input, deps }) => {
    const telling = tellingDeps(deps);
    const reviewed = await reviewDeliverableOf(deps.db, telling, { uid: caller.uid, ...input });
    if (reviewed.kind === "SUCCESS" && input.review.verdict === "approve") {
      await releaseDeal(deps.db, deps.payments, telling, input.dealId).catch((error: unknown) => deps.logger.warn({ err: error, dealId: input.dealId }, "deal release deferred to the sweep"));
    }
    return reviewed;
  },
});
