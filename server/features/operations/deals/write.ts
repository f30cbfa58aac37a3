import { z } from "zod";
import { moveDeal as moveDealOf } from "#server/domains/deals/act";
import { openDeal as openDealOf } from "#server/domains/deals/open-deal";
import { dealIdSchema, defineDealOperation, networkOf, tellingDeps, termsSchema } from "./deal-operation";

/**
 * A creator's application to a brief, or a sponsor's offer on a creator's request: the
 * apply/offer page's Send (app/routes/deals/open.tsx) and
 * `POST /api/v1/opportunities/{opportunityId}/deals`. The terms come checked by the form's rules
 * (termsSchema); the pitch, links and bio page are the domain's to check, by field.
 */
export const openDeal = defineDealOperation({
  name: "openDeal",
  who: "account-holder",
  input: z.object({
    opportunityId: z.string({ error: "opportunityId must be a string." }),
    pitch: z.string({ error: "pitch must be a string." }),
    /** Up to three addresses, one per line or space, as the form's box holds them. */
    links: z.string({ error: "links must be a string." }).default(""),
    /** One of the opener's own bio pages, or "" for none. */
    bioPageId: z.string({ error: "bioPageId must be a string." }).default(""),
    terms: termsSchema,
  }),
  // not-found: no such opportunity; invalid-argument: the caller's own, a closed one, or fields; aborted: a live deal there already.
  refusals: ["not-found", "invalid-argument", "aborted"],
  call: ({ caller, input, deps, client }) => openDealOf(deps.db, tellingDeps(deps), { uid: caller.uid, ...input, network: networkOf(client) }),
});

/** One move on a deal, as the table in server/domains/deals/transitions.ts names them. */
export const dealMoveSchema = z.discriminatedUnion(
  "action",
  [
    z.object({ action: z.literal("counter"), terms: termsSchema }),
    // Any whole number: one that is not the version on the table is answered as terms that changed.
    z.object({ action: z.literal("accept"), version: z.int({ error: "version must be the number of the terms you read." }) }),
    z.object({ action: z.literal("decline"), message: z.string({ error: "message must be a string." }).default("") }),
    z.object({ action: z.literal("withdraw") }),
    z.object({ action: z.literal("shortlist"), shortlisted: z.boolean({ error: "shortlisted must be true or false." }) }),
    // A booked deal: ask to cancel, agree to the other side's asking, or (the sponsor) cancel after a missed due date.
    z.object({ action: z.literal("request_cancel"), reason: z.string({ error: "reason must be a string." }).default("") }),
    z.object({ action: z.literal("agree_cancel") }),
    z.object({ action: z.literal("cancel_late") }),
    z.object({ action: z.literal("dispute"), reason: z.string({ error: "reason must be a string." }) }),
  ],
  { error: "action must be one of counter, accept, decline, withdraw, shortlist, request_cancel, agree_cancel, cancel_late, dispute." },
);

/**
 * One side's move on one of their deals (counter, accept, decline, withdraw, shortlist): the deal
 * page's buttons (app/routes/deals/deal-action.server.ts) and `POST /api/v1/deals/{dealId}/moves`.
 * Anyone else's deal is not-found and nothing changes; a move the table refuses now is aborted
 * with the table's sentence; accepting before the creator can be paid is permission-denied.
 */
export const moveDeal = defineDealOperation({
  name: "moveDeal",
  who: "account-holder",
  input: z.object({ dealId: dealIdSchema, move: dealMoveSchema }),
  refusals: ["not-found", "invalid-argument", "aborted", "permission-denied"],
  call: ({ caller, input, deps, client }) => moveDealOf(deps.db, tellingDeps(deps), { uid: caller.uid, dealId: input.dealId, move: input.move, network: networkOf(client) }),
});
