import { z } from "zod";
import { domainError, success } from "#server/platform/errors";
import { amountInputText, providerCheckoutUrl, startSponsorCheckout } from "#server/domains/payments/checkout/start-checkout";
import type { CallableFunction } from "#server/features/functions/protocol";
import { refusedWith, readData, type CallableDeps } from "./support";

const text = (name: string, max: number) => z.string({ error: `${name} must be a string.` }).max(max, `${name} must be at most ${max} characters.`);

const sponsorSessionInput = z.object(
  {
    /** The bio page's custom ending, as on the checkout page's address (`?page=`). */
    ending: text("ending", 200).min(1, "ending must not be empty."),
    kind: z.enum(["tip", "sponsorship"], { error: "kind must be tip or sponsorship." }),
    /** The sponsorship option (the opportunity post's id), for kind sponsorship. */
    postId: text("postId", 200).nullish(),
    /** Minor units (cents), like every amount in the product. */
    amount: z.number({ error: "amount must be a number of cents." }).int("amount must be a whole number of cents.").positive("amount must be more than 0."),
    sponsorEmail: text("sponsorEmail", 1000).optional(),
    message: text("message", 10_000),
  },
  { error: "data must be an object with ending, kind, amount and message." },
);

/**
 * SPEC §7.1 buildSponsorSession: a hosted checkout to pay a bio page's owner,
 * open to guests as the checkout page is (app/routes/payments/checkout.tsx),
 * through the same startSponsorCheckout: every field checked again there (a
 * field's problem comes back as invalid-argument with `details.fieldErrors`),
 * an owner whose payout account is incomplete is aborted, an unknown page or
 * option not-found. Answers { sessionId, url }: only the provider's own page.
 */
export function buildSponsorSessionFunction({ db, payments, config }: CallableDeps): CallableFunction {
  return async (data, context) => {
    const read = readData(sponsorSessionInput, data);
    if (read.kind === "ERROR") return read;
    const input = read.input;
    if (input.kind === "sponsorship" && !input.postId) return domainError("invalid-argument", "postId is required for a sponsorship.");
    const target = { ending: input.ending, kind: input.kind, postId: input.kind === "sponsorship" ? input.postId! : null };
    const values = { amount: amountInputText(input.amount), sponsorEmail: input.sponsorEmail ?? "", message: input.message };
    // Limited per client network and page as the checkout page is; no browser cookie, so no reuse.
    const client = { ip: context.ip, browserToken: null };
    const options = { platformFeePercent: config.PLATFORM_FEE_PERCENT, publicOrigin: config.PUBLIC_ORIGIN };
    const result = await startSponsorCheckout(db, payments, target, values, context.user?.id ?? null, client, options);
    if (result.kind === "ERROR") return refusedWith(result, "fieldErrors" in result ? { fieldErrors: result.fieldErrors } : undefined);
    const url = providerCheckoutUrl(result.url, payments);
    if (!url) return domainError("unavailable", "The checkout could not be opened. Please try again in a moment.");
    return success({ result: { sessionId: result.sessionId, url } });
  };
}
