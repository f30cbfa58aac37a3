import { z } from "zod";
import { dealMessagesPage, DEAL_MESSAGES_PAGE_SIZE, postDealMessage as postDealMessageOf } from "#server/domains/deals/thread";
import { dealIdSchema, defineDealOperation, tellingDeps } from "./deal-operation";

/**
 * A page of one of the caller's deals' thread, oldest first, after message `afterSeq`:
 * `GET /api/v1/deals/{dealId}/messages`. The deal page reads the whole thread with the deal (and
 * marks it read, server/domains/deals/thread.ts readDealThread); this read marks nothing.
 */
export const listDealMessages = defineDealOperation({
  name: "listDealMessages",
  who: "account-holder",
  input: z.object({
    dealId: dealIdSchema,
    afterSeq: z.int({ error: "afterSeq must be a whole number." }).min(0, "afterSeq must be at least 0.").default(0),
    pageSize: z.int({ error: "pageSize must be a whole number." }).min(1, "pageSize must be at least 1.").max(100, "pageSize must be at most 100.").default(DEAL_MESSAGES_PAGE_SIZE),
  }),
  refusals: ["not-found"],
  call: ({ caller, input, deps }) => dealMessagesPage(deps.db, { uid: caller.uid, ...input }),
});

/**
 * A message from the caller into one of their deals' threads: the deal page's message box
 * (app/routes/deals/deal-action.server.ts) and `POST /api/v1/deals/{dealId}/messages`. Anyone
 * else's deal is not-found; an empty or too long message is refused by field (`body`).
 */
export const postDealMessage = defineDealOperation({
  name: "postDealMessage",
  who: "account-holder",
  input: z.object({ dealId: dealIdSchema, body: z.string({ error: "body must be a string." }) }),
  refusals: ["not-found", "invalid-argument"],
  call: ({ caller, input, deps }) => postDealMessageOf(deps.db, tellingDeps(deps), { uid: caller.uid, dealId: input.dealId, body: input.body }),
});
