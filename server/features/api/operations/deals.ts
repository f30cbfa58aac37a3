import { z } from "zod";
import { refusal } from "#server/platform/errors";
import { DEAL_ACTIONS } from "#server/domains/deals/transitions";
import type { DealListItem, DealView } from "#server/domains/deals/read";
import { DEAL_STATES, SUBMISSION_STATES, USAGE_RIGHTS } from "#server/platform/db/schema";
import type { AnyApiOperation } from "#server/features/api/operation";
import { apiOperationOf } from "#server/features/api/operation-door";
import { pageOf, pageQuery } from "#server/features/api/paging";
import { decodeTimeKeyset, encodeTimeKeyset } from "#server/platform/db/keyset";
import { termsSchema } from "#server/features/operations/deals/deal-operation";
import { listDealsOnOpportunity, listMyDeals, readDeal } from "#server/features/operations/deals/read";
import { dealMoveSchema, moveDeal, openDeal } from "#server/features/operations/deals/write";
import { MAX_DEAL_LINKS } from "#isomorphic/deal-limits";

const TAG = "Deals";

// Any id: one that is not one of the caller's deals is not_found, as the domain answers it.
export const dealPath = z.object({ dealId: z.string().min(1).max(100).meta({ description: "The deal's id (`deal_…`)." }) });
const opportunityPath = z.object({ opportunityId: z.string().min(1).max(100).meta({ description: "The opportunity's id." }) });

const side = z.enum(["creator", "sponsor"]);
const state = z.enum(DEAL_STATES);

const termsVersionSchema = z
  .object({
    version: z.int().min(1),
    proposedBy: side,
    price: z.int().meta({ description: "In minor units of `currency`: 75000 is $750.00." }),
    currency: z.string(),
    deliverables: z.array(z.object({ channel: z.string(), format: z.string(), dueDate: z.string() })),
    usageRights: z.enum(USAGE_RIGHTS),
    usageDays: z.int(),
    exclusivityDays: z.int(),
    disclosureRequired: z.boolean(),
    sponsorApproves: z.boolean(),
    autoApproveDays: z.int(),
    message: z.string(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "DealTerms", description: "One version of a deal's terms, as the side that proposed it sent them." });

export const deliverableWorkSchema = z
  .object({
    index: z.int().min(0).meta({ description: "The deliverable's place in the accepted terms' list." }),
    channel: z.string(),
    format: z.string(),
    dueDate: z.string(),
    changeRoundsLeft: z.int().min(0).meta({ description: "How many more times the sponsor may ask for changes." }),
    overdue: z.boolean().meta({ description: "Past its due date and never handed in: the sponsor may cancel (`cancel_late`)." }),
    submissions: z.array(
      z.object({
        round: z.int().min(1),
        liveUrl: z.string(),
        note: z.string(),
        state: z.enum(SUBMISSION_STATES),
        submittedAt: z.iso.datetime(),
        autoApproveAt: z.iso.datetime().nullable().meta({ description: "When silence approves it; null once reviewed or when the sponsor does not approve first." }),
        reviewedAt: z.iso.datetime().nullable(),
        approvedBySilence: z.boolean(),
        reviewNote: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: "DealDeliverableWork", description: "One deliverable of a booked deal and every time the creator handed it in, oldest first." });

const summaryFields = {
  id: z.string(),
  title: z.string().meta({ description: "The opportunity's title when the deal was opened, or what a direct offer is for." }),
  state,
  side: side.meta({ description: "Your side of the deal." }),
  otherName: z.string().meta({ description: "The other side's name." }),
  waitingOnYou: z.boolean().meta({ description: "Whether the terms on the table wait on your answer." }),
  shortlisted: z.boolean(),
  price: z.int().meta({ description: "The price of the terms on the table, in minor units of `currency`." }),
  currency: z.string(),
  updatedAt: z.iso.datetime(),
  unread: z.int().min(0).meta({ description: "Messages in the deal's thread you have not read." }),
};

const dealSummarySchema = z.object(summaryFields).meta({ id: "DealSummary", description: "A deal as My deals lists it." });
const inboxItemSchema = z
  .object({ ...summaryFields, pitch: z.string() })
  .meta({ id: "DealInboxItem", description: "An application or offer on your opportunity, as its inbox lists it." });

export const dealSchema = z
  .object({
    id: z.string(),
    origin: z.enum(["application", "offer"]).meta({ description: "`application`: a creator applied to a brief; `offer`: a sponsor made an offer on a request." }),
    title: z.string(),
    opportunityId: z.string().nullable(),
    state,
    side: side.meta({ description: "Your side of the deal." }),
    waitingOnYou: z.boolean(),
    openedBy: side,
    pitch: z.string(),
    links: z.array(z.string()),
    bioPageEnding: z.string().nullable().meta({ description: "The creator's bio page shown with the application, or null." }),
    shortlisted: z.boolean(),
    declineMessage: z.string().nullable(),
    endedByYou: z.boolean().meta({ description: "Whether you are who declined or withdrew." }),
    accepted: z.object({ version: z.int(), byYou: z.boolean(), at: z.iso.datetime() }).nullable(),
    names: z.object({ creator: z.string(), sponsor: z.string() }),
    versions: z.array(termsVersionSchema).meta({ description: "Every version of the terms, oldest first; the last is on the table." }),
    fees: z
      .object({
        price: z.int(),
        platformFee: z.int().meta({ description: "What the platform keeps, in minor units." }),
        creatorReceives: z.int().meta({ description: "What reaches the creator, in minor units." }),
        percent: z.number(),
      })
      .meta({ description: "The split of the price on the table." }),
    actions: z.array(z.enum(DEAL_ACTIONS)).meta({ description: "The moves you may make now (`POST /deals/{dealId}/moves`)." }),
    funding: z
      .object({ state: z.enum(["open", "paid"]), amount: z.int(), currency: z.string(), paidAt: z.iso.datetime().nullable() })
      .nullable()
      .meta({ description: "The sponsor's payment for the agreed terms: `open` while its checkout waits, `paid` once the platform holds the money; null while nobody is paying." }),
    work: z
      .array(deliverableWorkSchema)
      .nullable()
      .meta({ description: "Once booked: each deliverable of the accepted terms with every time it was handed in; null before." }),
    release: z
      .object({ amount: z.int(), currency: z.string(), at: z.iso.datetime() })
      .nullable()
      .meta({ description: "Once completed: what was transferred to the creator, in minor units, and when." }),
    dispute: z
      .object({
        openedBy: z.enum(["you", "them", "bank"]).meta({ description: "`bank`: the sponsor's bank disputed the card payment." }),
        reason: z.string(),
        openedAt: z.iso.datetime(),
        decision: z
          .object({
            decision: z.enum(["release", "refund", "split"]),
            sponsorRefund: z.int().meta({ description: "What goes back to the sponsor, in minor units." }),
            creatorShare: z.int().meta({ description: "What is transferred to the creator, in minor units." }),
            reason: z.string(),
            decidedAt: z.iso.datetime(),
            settled: z.boolean().meta({ description: "Whether the money has moved as decided." }),
          })
          .nullable()
          .meta({ description: "Staff's decision, once made; null while the money is frozen." }),
      })
      .nullable()
      .meta({ description: "A dispute on the booked deal (the `dispute` move): the money stays held until staff decide." }),
    cancelRequest: z
      .object({ byYou: z.boolean(), reason: z.string().nullable() })
      .nullable()
      .meta({ description: "On a booked deal: a side asked to cancel it and the other has not answered (`agree_cancel`)." }),
    refunded: z.int().nullable().meta({ description: "Once cancelled: what has gone back to the sponsor so far, in minor units." }),
    invoiceNumber: z.string().nullable().meta({ description: "Once booked: the number of the sponsor's invoice, issued with the booking (`INV-0001`, counted per creator); null before." }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "Deal", description: "A deal as either of its sides reads it." });

const listQuery = pageQuery.extend({
  waiting: z.enum(["true", "false"]).optional().meta({ description: "true: only deals whose terms wait on your answer; false or absent: all." }),
});

// My deals' own keyset (server/domains/deals/read.ts), wrapped as every API cursor is.
const invalidCursor = () => refusal("invalid-argument", "INVALID_CURSOR", "This cursor is not one of ours. Start again from the first page.");

const openBodySchema = z
  .strictObject({
    pitch: z.string().meta({ description: "Why you are a good match (an application) or what you offer (an offer); required, at most 2000 characters." }),
    links: z
      .array(z.string())
      .max(MAX_DEAL_LINKS, `At most ${MAX_DEAL_LINKS} links`)
      .default([])
      .meta({ description: `A creator's media kit or past work: up to ${MAX_DEAL_LINKS} http(s) addresses.` }),
    bioPageId: z.string().nullable().default(null).meta({ description: "One of your own bio pages to show with an application, or null." }),
    terms: termsSchema,
  })
  .meta({ id: "NewDeal", description: "An application to a brief (you are the creator) or an offer on a request (you are the sponsor)." });

const movesBodySchema = dealMoveSchema.meta({
  id: "DealMove",
  description:
    "One move: `counter` with `terms` (you answer with terms of your own); `accept` with the `version` you read; `decline` with an optional `message`; `withdraw`; `shortlist` with `shortlisted` (the side that received the deal).",
});

const toSummary = (item: DealListItem) => ({ ...item });
const toDeal = (deal: DealView, fees: { price: number; platformFee: number; creatorReceives: number; percent: number }) => ({ ...deal, fees });

export const dealOperations: AnyApiOperation[] = [
  apiOperationOf(listMyDeals, {
    id: "listDeals",
    method: "get",
    path: "/deals",
    tag: TAG,
    summary: "List your deals",
    description: "Your deals on either side, most recent activity first, as on My deals. `?waiting=true` keeps only those waiting on your answer.",
    scope: "deals:read",
    query: listQuery,
    success: { status: 200, description: "A page of deals.", schema: pageOf(dealSummarySchema, "DealPage") },
    refuse: ({ query }) => (query.cursor !== undefined && decodeTimeKeyset(query.cursor) === null ? invalidCursor() : null),
    input: ({ query }) => ({
      after: decodeTimeKeyset(query.cursor),
      pageSize: query.limit,
      waitingOnly: query.waiting === "true",
    }),
    answer: (page) => ({ data: page.items.map(toSummary), nextCursor: page.next ? encodeTimeKeyset(page.next) : null }),
  }),
  apiOperationOf(readDeal, {
    id: "getDeal",
    method: "get",
    path: "/deals/{dealId}",
    tag: TAG,
    summary: "Read a deal",
    description: "One of your deals with every version of its terms, the fee split of the terms on the table and the moves you may make now. Another account's deal is `not_found`.",
    scope: "deals:read",
    params: dealPath,
    success: { status: 200, description: "The deal.", schema: dealSchema },
    input: ({ params }) => ({ dealId: params.dealId }),
    answer: ({ deal, split }) => toDeal(deal, split),
  }),
  apiOperationOf(moveDeal, {
    id: "moveDeal",
    method: "post",
    path: "/deals/{dealId}/moves",
    tag: TAG,
    summary: "Make a move on a deal",
    description:
      "Counter, accept, decline, withdraw or shortlist, as the deal's page does; `actions` on the deal says which you may make now. " +
      "A move the deal's state does not allow is 409 (`wrong_state`, `not_your_turn`, or `terms_changed` when you accept a version that is no longer on the table); " +
      "accepting before the creator connected payouts is 403 `payouts_needed`. Another account's deal is `not_found` and nothing changes. Send an Idempotency-Key so a retry cannot move twice.",
    scope: "deals:write",
    params: dealPath,
    body: movesBodySchema,
    idempotent: true,
    success: { status: 200, description: "The deal after the move.", schema: z.object({ id: z.string() }).meta({ id: "DealMoved", description: "The deal moved; read it with `GET /deals/{dealId}`." }) },
    input: ({ params, body }) => ({ dealId: params.dealId, move: body }),
    answer: ({ dealId }) => ({ id: dealId }),
  }),
  apiOperationOf(openDeal, {
    id: "openDeal",
    method: "post",
    path: "/opportunities/{opportunityId}/deals",
    tag: TAG,
    summary: "Apply to a brief or make an offer",
    description:
      "A creator applies to a sponsor's brief, or a sponsor makes an offer on a creator's request, with a pitch and proposed terms; the poster is told. " +
      "Terms are checked by the same rules and messages as the form in the app; `fields` names each one (`body.terms.price`, `body.terms.deliverables`). " +
      "Your own opportunity is `own_opportunity`, one past its deadline `closed`, and a second live deal on the same opportunity 409 `already_open`. Send an Idempotency-Key so a retry cannot apply twice.",
    scope: "deals:write",
    params: opportunityPath,
    body: openBodySchema,
    idempotent: true,
    success: { status: 201, description: "The new deal, waiting on the poster.", schema: z.object({ id: z.string() }).meta({ id: "DealOpened", description: "The new deal; read it with `GET /deals/{dealId}`." }) },
    input: ({ params, body }) => ({ opportunityId: params.opportunityId, pitch: body.pitch, links: body.links.join("\n"), bioPageId: body.bioPageId ?? "", terms: body.terms }),
    answer: ({ dealId }) => ({ id: dealId }),
  }),
  apiOperationOf(listDealsOnOpportunity, {
    id: "listDealsOnOpportunity",
    method: "get",
    path: "/opportunities/{opportunityId}/deals",
    tag: TAG,
    summary: "List the applications or offers on your opportunity",
    description: "Your opportunity's inbox: every deal opened on it, the shortlisted first, then newest first (at most 200). Another account's opportunity is `not_found`.",
    scope: "deals:read",
    params: opportunityPath,
    success: { status: 200, description: "The opportunity's deals.", schema: z.object({ data: z.array(inboxItemSchema) }).meta({ id: "DealInbox" }) },
    input: ({ params }) => ({ opportunityId: params.opportunityId }),
    answer: ({ items }) => ({ data: items }),
  }),
];
