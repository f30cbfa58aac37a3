import { z } from "zod";
import { domainError, success } from "#server/platform/errors";
import { providerCheckoutUrl, startSponsorCheckout } from "#server/domains/payments/checkout/start-checkout";
import { defineOperation } from "#server/features/operations/operation";

/**
 * What a sponsor sends: the page and what the payment is for (the checkout page's address), and the
 * form's fields as typed (the amount as text, "25.50"). Only the types are checked here: every
 * field's content is checked by the domain, which names each problem (`fieldErrors`), so one
 * submit shows them all.
 */
const sponsorSessionInput = z
  .object({
    ending: z.string(),
    kind: z.enum(["tip", "sponsorship"]),
    /** The sponsorship option (the opportunity post's id), for kind sponsorship. */
    postId: z.string().nullable(),
    amount: z.string(),
    sponsorEmail: z.string(),
    message: z.string(),
    supporterName: z.string().optional(),
    private: z.boolean().optional(),
  })
  .refine((input) => input.kind !== "sponsorship" || Boolean(input.postId), { message: "postId is required for a sponsorship.", path: ["postId"] });

/**
 * Open a hosted checkout to pay a bio page's owner (SPEC §7.1 buildSponsorSession): the checkout
 * page's form (app/routes/payments/checkout.tsx) and the callable. Open to guests; a signed-in
 * caller is recorded as the sponsor. Limited per client network and page; the same browser
 * sending the same form again gets its open checkout back (server/domains/payments/checkout/).
 * Answers the provider's own checkout page only: any other address is refused, never followed.
 */
export const startSponsorSession = defineOperation({
  name: "startSponsorSession",
  who: "anyone",
  input: sponsorSessionInput,
  // invalid-argument: fieldErrors; not-found: no such page or option; aborted: the owner cannot take payments (or tips) now;
  // resource-exhausted: too many checkouts (retryAfterSeconds); bad-gateway: the provider answered an address off its own pages.
  refusals: ["invalid-argument", "not-found", "aborted", "resource-exhausted", "unavailable", "bad-gateway"],
  async call({ caller, input, deps, client }) {
    if (!client) throw new Error("startSponsorSession needs the client's address: every door that opens a checkout says where the request came from.");
    const { db, payments, config } = deps;
    const target = { ending: input.ending, kind: input.kind, postId: input.kind === "sponsorship" ? input.postId : null };
    const values = { amount: input.amount, sponsorEmail: input.sponsorEmail, message: input.message, supporterName: input.supporterName, private: input.private };
    const options = { platformFeePercent: config.PLATFORM_FEE_PERCENT, publicOrigin: config.PUBLIC_ORIGIN };
    const started = await startSponsorCheckout(db, payments, target, values, caller.uid, client, options);
    if (started.kind === "ERROR") return started;
    const url = providerCheckoutUrl(started.url, payments);
    if (!url) return domainError("bad-gateway", "The checkout could not be opened. Please try again in a moment.");
    return success({ sessionId: started.sessionId, url });
  },
});
