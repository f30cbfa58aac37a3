import { z } from "zod";
import { getOpportunity } from "#server/domains/opportunities/read";
import { success } from "#server/platform/errors";
import { defineOperation } from "#server/features/operations/operation";
import { NO_SUCH_OPPORTUNITY, opportunityIdSchema } from "./opportunity-input";

/**
 * Read one opportunity with everything its page shows: the detail page
 * (app/routes/opportunities/detail.tsx, guests too) and `GET /api/v1/opportunities/{id}`.
 * Anyone's live post, or the caller's own even when staff took it down (it says why then);
 * a suspended poster's posts, and posts taken down, are no one else's (server/domains/opportunities/read.ts).
 */
export const readOpportunity = defineOperation({
  name: "readOpportunity",
  who: "anyone",
  input: z.object({ opportunityId: opportunityIdSchema }),
  refusals: ["not-found"],
  call: async ({ caller, input, deps }) => {
    const post = await getOpportunity(deps.db, input.opportunityId, caller.uid);
    return post ? success({ post }) : NO_SUCH_OPPORTUNITY;
  },
});
