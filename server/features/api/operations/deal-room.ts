import { z } from "zod";
import { refusal } from "#server/platform/errors";
import { decodeCursor, encodeCursor, pageOf, pageQuery } from "#server/features/api/paging";
import type { AnyApiOperation } from "#server/features/api/operation";
import { apiOperationOf } from "#server/features/api/operation-door";
import { listDealMessages, postDealMessage } from "#server/features/operations/deals/thread";
import { readDealWork, reviewDeliverable, reviewSchema, submitDeliverable } from "#server/features/operations/deals/work";
import { DEAL_STATES } from "#server/platform/db/schema";
import { MAX_DEAL_TEXT, MAX_MESSAGE_TEXT } from "#isomorphic/deal-limits";
import { dealPath, deliverableWorkSchema } from "./deals";

/**
 * A deal's room beyond its terms: the thread both sides write in, and the work the creator hands
 * in and the sponsor reviews. Each route is a door onto the operation the deal page uses too
 * (server/features/operations/deals/thread.ts and work.ts), so it refuses as the page does.
 */
const TAG = "Deals";

const side = z.enum(["creator", "sponsor"]);

export const dealMessageSchema = z
  .object({
    seq: z.int().min(1).meta({ description: "The message's number in the deal's thread, from 1, without gaps." }),
    side: side.meta({ description: "The side that wrote it." }),
    body: z.string(),
    at: z.iso.datetime(),
  })
  .meta({ id: "DealMessage", description: "One message in a deal's thread." });

// A path segment that is no deliverable's place names nothing: the router answers 404, as for an unknown deal.
const deliverablePath = dealPath.extend({
  deliverable: z
    .string()
    .regex(/^\d{1,2}$/)
    .meta({ description: "The deliverable's place in the accepted terms' list, from 0 (`index` in the deal's `work`)." }),
});

const messageCursorShape = z.object({ seq: z.int().min(0) });
const invalidCursor = () => refusal("invalid-argument", "INVALID_CURSOR", "This cursor is not one of ours. Start again from the first page.");

const messageBody = z
  .strictObject({ body: z.string().meta({ description: `The message, 1–${MAX_MESSAGE_TEXT} characters once trimmed.` }) })
  .meta({ id: "NewDealMessage", description: "A message into the deal's thread." });

const submissionBody = z
  .strictObject({
    liveUrl: z.string().meta({ description: "Where the deliverable is live: an http(s) address of at most 500 characters." }),
    note: z.string().default("").meta({ description: `Anything the sponsor should know, at most ${MAX_DEAL_TEXT} characters.` }),
  })
  .meta({ id: "NewDealSubmission", description: "A deliverable handed in." });

const reviewBody = reviewSchema.meta({
  id: "DealReview",
  description: `\`approve\`, or \`changes\` with a \`note\` saying what should change (1–${MAX_DEAL_TEXT} characters); the sponsor may ask for changes twice per deliverable.`,
});

const workSchema = z
  .object({
    dealId: z.string(),
    state: z.enum(DEAL_STATES),
    side: side.meta({ description: "Your side of the deal." }),
    deliverables: z.array(deliverableWorkSchema).meta({ description: "Each deliverable of the accepted terms and every time it was handed in; empty until the deal is booked." }),
  })
  .meta({ id: "DealWork", description: "The work on a deal, as its page shows it." });

export const dealRoomOperations: AnyApiOperation[] = [
  apiOperationOf(listDealMessages, {
    id: "listDealMessages",
    method: "get",
    path: "/deals/{dealId}/messages",
    tag: TAG,
    summary: "List a deal's messages",
    description: "The deal's thread, oldest first, a page at a time. Reading it here marks nothing read in the app. Another account's deal is `not_found`.",
    scope: "deals:read",
    params: dealPath,
    query: pageQuery,
    success: { status: 200, description: "A page of messages.", schema: pageOf(dealMessageSchema, "DealMessagePage") },
    refuse: ({ query }) => (query.cursor !== undefined && decodeCursor(query.cursor, messageCursorShape) === null ? invalidCursor() : null),
    input: ({ params, query }) => ({ dealId: params.dealId, afterSeq: query.cursor === undefined ? 0 : decodeCursor(query.cursor, messageCursorShape)!.seq, pageSize: query.limit }),
    answer: ({ messages, next }) => ({ data: messages, nextCursor: next === null ? null : encodeCursor({ seq: next }) }),
  }),
  apiOperationOf(postDealMessage, {
    id: "postDealMessage",
    method: "post",
    path: "/deals/{dealId}/messages",
    tag: TAG,
    summary: "Write in a deal's thread",
    description:
      "A message to the other side, in any state of the deal; they are told as the app tells them. An empty or too long message names `body.body`. Another account's deal is `not_found`. Send an Idempotency-Key so a retry cannot post twice.",
    scope: "deals:write",
    params: dealPath,
    body: messageBody,
    idempotent: true,
    success: { status: 201, description: "The message, as the thread lists it.", schema: z.object({ seq: z.int().min(1) }).meta({ id: "DealMessagePosted", description: "The new message's number in the thread." }) },
    input: ({ params, body }) => ({ dealId: params.dealId, body: body.body }),
    answer: ({ seq }) => ({ seq }),
  }),
  apiOperationOf(readDealWork, {
    id: "getDealWork",
    method: "get",
    path: "/deals/{dealId}/work",
    tag: TAG,
    summary: "Read a deal's work",
    description: "Each deliverable of a booked deal's accepted terms with every time the creator handed it in and what the sponsor answered, as the deal's page shows it. Another account's deal is `not_found`.",
    scope: "deals:read",
    params: dealPath,
    success: { status: 200, description: "The deal's work.", schema: workSchema },
    input: ({ params }) => ({ dealId: params.dealId }),
    answer: (work) => ({ dealId: work.dealId, state: work.state, side: work.side, deliverables: work.deliverables }),
  }),
  apiOperationOf(submitDeliverable, {
    id: "submitDeliverable",
    method: "post",
    path: "/deals/{dealId}/work/{deliverable}/submissions",
    tag: TAG,
    summary: "Hand in a deliverable",
    description:
      "The creator hands in a deliverable of a booked deal with the address where it is live; the sponsor is told. With terms that do not ask the sponsor's approval it is approved at once. " +
      "The sponsor is 409 `not_your_turn`; a deal that is not booked, or a deliverable waiting on review or approved, is 409 `wrong_state`; another account's deal, or no such deliverable, is `not_found`. Send an Idempotency-Key so a retry cannot hand in twice.",
    scope: "deals:write",
    params: deliverablePath,
    body: submissionBody,
    idempotent: true,
    success: {
      status: 201,
      description: "The submission.",
      schema: z
        .object({ round: z.int().min(1).meta({ description: "How many times this deliverable has been handed in, this one included." }), state: z.enum(["submitted", "approved"]) })
        .meta({ id: "DealSubmissionMade", description: "The submission's round and state: `submitted` waits on the sponsor, `approved` when the terms ask no approval." }),
    },
    input: ({ params, body }) => ({ dealId: params.dealId, deliverable: Number(params.deliverable), liveUrl: body.liveUrl, note: body.note }),
    answer: ({ round, state }) => ({ round, state: state === "approved" ? ("approved" as const) : ("submitted" as const) }),
  }),
  apiOperationOf(reviewDeliverable, {
    id: "reviewDeliverable",
    method: "post",
    path: "/deals/{dealId}/work/{deliverable}/review",
    tag: TAG,
    summary: "Approve a deliverable or ask for changes",
    description:
      "The sponsor answers the submission waiting on them. When the last deliverable is approved the creator's share is released (`deal.completed`). " +
      "The creator is 409 `not_your_turn`; nothing waiting on review is 409 `wrong_state`; a third request for changes is 409 `no_rounds_left`; an empty note names `body.note`. Another account's deal is `not_found`. Send an Idempotency-Key so a retry cannot review twice.",
    scope: "deals:write",
    params: deliverablePath,
    body: reviewBody,
    idempotent: true,
    success: { status: 200, description: "The review was recorded.", schema: z.object({ verdict: z.enum(["approve", "changes"]) }).meta({ id: "DealReviewed" }) },
    input: ({ params, body }) => ({ dealId: params.dealId, deliverable: Number(params.deliverable), review: body }),
    answer: ({ verdict }) => ({ verdict }),
  }),
];
