import { z } from "zod";
import { dealsOnOpportunity, feeSplit, myDeals, MY_DEALS_PAGE_SIZE, readDeal as readDealOf } from "#server/domains/deals/read";
import { getOpportunity } from "#server/domains/opportunities/read";
import { refusal, success } from "#server/platform/errors";
import { dealIdSchema, defineDealOperation } from "./deal-operation";

/**
 * A page of the caller's deals, either side, most recent activity first: "My deals"
 * (app/routes/deals/my-deals.tsx) and `GET /api/v1/deals`. `after` and `next` are a deal's place
 * (server/platform/db/keyset.ts); each door wraps it in the platform's cursor and unwraps it itself.
 */
export const listMyDeals = defineDealOperation({
  name: "listMyDeals",
  who: "account-holder",
  input: z.object({
    after: z
      .object(
        {
          micros: z.string({ error: "after.micros must be a string." }).regex(/^\d{1,17}$/, "after.micros must be microseconds since 1970."),
          id: z.string({ error: "after.id must be a string." }).min(1, "after.id must not be empty.").max(100, "after.id must be at most 100 characters."),
        },
        { error: "after must be a deal's place in the list." },
      )
      .nullable()
      .default(null),
    pageSize: z.int({ error: "pageSize must be a whole number." }).min(1, "pageSize must be at least 1.").max(100, "pageSize must be at most 100.").default(MY_DEALS_PAGE_SIZE),
    waitingOnly: z.boolean({ error: "waitingOnly must be true or false." }).default(false),
  }),
  refusals: [],
  call: async ({ caller, input, deps }) => success(await myDeals(deps.db, caller.uid, input)),
});

/**
 * One of the caller's deals with every version of its terms, the fee split of the terms on the
 * table and the moves the caller may make now: the deal page (app/routes/deals/deal.tsx) and
 * `GET /api/v1/deals/{dealId}`. Anyone else's deal, or none, is not-found. `thread` is where the
 * caller's reading of the thread stands, for the page to read the thread without the row again.
 */
export const readDeal = defineDealOperation({
  name: "readDeal",
  who: "account-holder",
  input: z.object({ dealId: dealIdSchema }),
  refusals: ["not-found"],
  call: async ({ caller, input, deps }) => {
    const found = await readDealOf(deps.db, caller.uid, input.dealId);
    if (!found) return refusal("not-found", "NOT_FOUND", "There is no such deal.");
    const latest = found.view.versions.at(-1)!;
    return success({ deal: found.view, split: feeSplit(latest.price, deps.config.PLATFORM_FEE_PERCENT), thread: found.thread });
  },
});

/**
 * The poster's inbox for one of their opportunities: every application or offer on it, the
 * shortlisted first (the opportunity's page, app/routes/opportunities/detail.tsx, shows it to its
 * poster) and `GET /api/v1/opportunities/{opportunityId}/deals`. Another person's opportunity has
 * no inbox for the caller: not-found, as if there were no such post.
 */
export const listDealsOnOpportunity = defineDealOperation({
  name: "listDealsOnOpportunity",
  who: "account-holder",
  input: z.object({ opportunityId: z.string({ error: "opportunityId must be a string." }) }),
  refusals: ["not-found"],
  call: async ({ caller, input, deps }) => {
    const post = await getOpportunity(deps.db, input.opportunityId, caller.uid);
    if (!post || post.posterUid !== caller.uid) return refusal("not-found", "NOT_FOUND", "There is no such opportunity.");
    return success({ opportunityId: post.id, items: await dealsOnOpportunity(deps.db, caller.uid, post.id) });
  },
});
