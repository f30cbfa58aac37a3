import { z } from "zod";
import { requireAddressVerifiedNow } from "#server/features/operations/verified-now";
import { deleteOpportunity } from "#server/domains/opportunities/mutations";
import { success } from "#server/platform/errors";
import { defineOperation } from "#server/features/operations/operation";
import { NO_SUCH_OPPORTUNITY, NOT_YOUR_OPPORTUNITY, opportunityIdSchema } from "./opportunity-input";

/**
 * Delete one of the caller's own posts, with its hearts, for good: the detail page's "Yes, delete
 * it" (app/routes/opportunities/detail.tsx) and `DELETE /api/v1/opportunities/{id}`. Someone
 * else's post is not-found and stays; deleting needs a verified email address, read from the account.
 */
export const deleteOwnOpportunity = defineOperation({
  name: "deleteOwnOpportunity",
  who: "account-holder",
  input: z.object({ opportunityId: opportunityIdSchema }),
  // permission-denied: EMAIL_NOT_VERIFIED; not-found: no such post (NOT_FOUND) or someone else's (NOT_YOURS).
  refusals: ["permission-denied", "not-found"],
  call: async ({ caller, input, deps }) => {
    const verified = await requireAddressVerifiedNow(deps.db, caller);
    if (verified.kind === "ERROR") return verified;
    const deleted = await deleteOpportunity(deps.db, { uid: caller.uid }, input.opportunityId);
    if (deleted.kind === "SUCCESS") return success();
    return deleted.code === "permission-denied" ? NOT_YOUR_OPPORTUNITY : NO_SUCH_OPPORTUNITY;
  },
});
