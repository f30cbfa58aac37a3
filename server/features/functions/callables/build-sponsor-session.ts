import { z } from "zod";
import { success } from "#server/platform/errors";
import { amountInputText } from "#server/domains/payments/checkout/start-checkout";
import { startSponsorSession } from "#server/features/operations/payments/sponsor-session";
import { callableOperation } from "#server/features/functions/operation-door";
import type { CallableFunction } from "#server/features/functions/protocol";
import { readData, type CallableDeps } from "./support";

const text = (name: string, max: number) => z.string({ error: `${name} must be a string.` }).max(max, `${name} must be at most ${max} characters.`);

const SHAPE = "data must be an object with ending, kind, amount and message.";

/** The callable's payload: typed JSON (the amount a whole number of cents), bounded as a call's body is. */
const sponsorSessionPayload = z.object(
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
  { error: SHAPE },
);

/**
 * SPEC §7.1 buildSponsorSession: the startSponsorSession operation
 * (server/features/operations/payments/sponsor-session.ts) through the functions protocol. The
 * payload is decoded into the form's values (cents as the text a person would type); a field's
 * problem comes back as invalid-argument with `details.fieldErrors`. Answers { sessionId, url }.
 */
export function buildSponsorSessionFunction(deps: CallableDeps): CallableFunction {
  return callableOperation(startSponsorSession, deps, {
    shape: SHAPE,
    input(data) {
      const read = readData(sponsorSessionPayload, data);
      if (read.kind === "ERROR") return read;
      const { ending, kind, postId, amount, sponsorEmail, message } = read.input;
      return success({ input: { ending, kind, postId: postId ?? null, amount: amountInputText(amount), sponsorEmail: sponsorEmail ?? "", message } });
    },
    answer: ({ sessionId, url }) => ({ sessionId, url }),
  });
}
