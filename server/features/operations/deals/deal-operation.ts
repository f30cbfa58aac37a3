import { z } from "zod";
import { parseDeliverables, priceProblem, type DealTermsInput } from "#server/domains/deals/terms-form";
import { notificationDepsOf } from "#server/domains/notifications/deps";
import type { NotificationDeps } from "#server/domains/notifications/send";
import type { Config } from "#server/platform/config";
import type { Db } from "#server/platform/db/client";
import { USAGE_RIGHTS, type DealDeliverable } from "#server/platform/db/schema";
import type { Mailer } from "#server/platform/email/mailer";
import { defineOperation, type Answer, type Client, type Operation, type Who_ } from "#server/features/operations/operation";
import { DEFAULT_CURRENCY } from "#isomorphic/payment-limits";
import { MAX_DEAL_TEXT, MAX_DELIVERABLES } from "#isomorphic/deal-limits";

/**
 * What the deal operations use: the database, the mail that tells the other side (a page's
 * context and `/api/v1`'s services both hold it), and the platform's fee for the split both sides
 * are shown. A SPEC §7.1 callable has no mailer, and there is no deal callable.
 */
export type DealDeps = {
  db: Db;
  mailer: Mailer;
  sessionSecret: string;
  config: Pick<Config, "APP_NAME" | "SUPPORT_EMAIL" | "PUBLIC_ORIGIN" | "PLATFORM_FEE_PERCENT">;
};

/** defineOperation for an operation that uses DealDeps. */
export function defineDealOperation<Input extends z.ZodType, Who extends Who_, Output extends Answer>(operation: Operation<Input, Who, Output, DealDeps>) {
  return defineOperation(operation);
}

export const tellingDeps = (deps: DealDeps): NotificationDeps => notificationDepsOf(deps);

/**
 * Where a move was made from, as acceptance records it: the request's client address. Every door
 * that reaches a deal says it (a page's context, the API's request).
 */
export function networkOf(client: Client | null): string {
  if (!client) throw new Error("A deal's move records where it came from: every door that reaches a deal says the client's address.");
  return client.ip;
}

/** A deal by its id. Any string: the domain answers an id that is not one of the caller's deals as not-found. */
export const dealIdSchema = z.string({ error: "dealId must be a string." });

const wholeDays = (min: number, max: number, what: string) =>
  z.int({ error: `${what} must be a whole number of days from ${min} to ${max}` }).min(min, `${what} must be a whole number of days from ${min} to ${max}`).max(max, `${what} must be a whole number of days from ${min} to ${max}`);

const deliverableSchema = z.object({
  channel: z.string({ error: "channel must be a string." }).meta({ description: "Where it is published, under 40 characters.", example: "YouTube" }),
  format: z.string({ error: "format must be a string." }).meta({ description: "What is made, under 80 characters.", example: "60-second integration" }),
  dueDate: z.string({ error: "dueDate must be a date." }).meta({ description: "YYYY-MM-DD; not in the past.", example: "2030-03-01" }),
});

/**
 * Terms as structured data, held to the terms form's rules and messages (server/domains/deals/terms-form.ts):
 * the price in minor units, the deliverables as a list. The deal page's form reads its text into
 * these (parseTerms) before it runs an operation; `/api/v1` sends them as JSON.
 */
export const termsSchema = z
  .object({
    price: z.int({ error: "price must be a whole number of minor units (cents)." }).meta({ description: "In minor units of `currency`: 75000 is $750.00." }),
    currency: z.literal(DEFAULT_CURRENCY, { error: `Deals are in US dollars: currency must be "${DEFAULT_CURRENCY}".` }),
    deliverables: z.array(deliverableSchema, { error: "deliverables must be a list." }).meta({ description: `What the creator makes, 1–${MAX_DELIVERABLES}.` }),
    usageRights: z.enum(USAGE_RIGHTS, { error: "Choose what the sponsor may do with the content" }).meta({ description: "`none`, `organic` (reposting) or `paid` (ads)." }),
    usageDays: wholeDays(0, 3650, "Usage rights").default(30).meta({ description: "How long the usage rights last; 0 when `usageRights` is `none`." }),
    exclusivityDays: wholeDays(0, 365, "Exclusivity").default(0),
    disclosureRequired: z.boolean({ error: "disclosureRequired must be true or false." }).default(true),
    sponsorApproves: z.boolean({ error: "sponsorApproves must be true or false." }).default(true).meta({ description: "Whether the sponsor approves the content before it is published." }),
    autoApproveDays: wholeDays(1, 30, "The approval window").default(3).meta({ description: "Days the sponsor has to approve before it is approved for them." }),
    message: z
      .string({ error: "message must be a string." })
      .trim()
      .refine((value) => [...value].length <= MAX_DEAL_TEXT, `Must be at most ${MAX_DEAL_TEXT} characters`)
      .default("")
      .meta({ description: "Anything else about these terms." }),
  })
  // A refinement, not the transform, so that it names its fields beside any other field's problem: every message at once, as the form.
  .superRefine((terms, ctx) => {
    const price = priceProblem(terms.price);
    if (price) ctx.addIssue({ code: "custom", path: ["price"], message: price });
    const deliverables = deliverablesOf(terms.deliverables);
    if (typeof deliverables === "string") ctx.addIssue({ code: "custom", path: ["deliverables"], message: deliverables });
  })
  .meta({ id: "DealTermsInput", description: "Terms one side proposes. Fields left out take the form's defaults." })
  .transform((terms): DealTermsInput => ({ ...terms, usageDays: terms.usageRights === "none" ? 0 : terms.usageDays, deliverables: deliverablesOf(terms.deliverables) as DealDeliverable[] }));

/** The deliverable rows by the form's rules (wholly empty rows dropped), or what is wrong with them. */
function deliverablesOf(rows: { channel: string; format: string; dueDate: string }[]): DealDeliverable[] | string {
  return parseDeliverables(
    rows.map((row) => row.channel),
    rows.map((row) => row.format),
    rows.map((row) => row.dueDate),
    new Date(),
  );
}
