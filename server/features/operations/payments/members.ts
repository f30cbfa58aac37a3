import type { Logger } from "pino";
import { z } from "zod";
import type { Config } from "#server/platform/config";
import type { Db } from "#server/platform/db/client";
import type { Mailer } from "#server/platform/email/mailer";
import type { PaymentProvider } from "#server/providers/payments/port";
import { cancelMember } from "#server/domains/memberships/creator-actions";
import { readCreatorMember } from "#server/domains/memberships/creator-view";
import { memberLinkKey } from "#server/domains/memberships/member-link";
import { defineOperation, type Answer, type Operation, type Who_ } from "#server/features/operations/operation";
import { webhookDepsOf } from "#server/features/payment-webhooks/http";

/**
 * What the member operations use: the database, and for a cancel the provider, the outbox and the
 * secret member links are signed with (a page's context and `/api/v1` hold them all).
 */
export type MemberDeps = { db: Db; payments: PaymentProvider; mailer: Mailer; config: Config; logger: Logger; sessionSecret: string };

/** defineOperation for an operation that uses MemberDeps. */
function defineMemberOperation<Input extends z.ZodType, Who extends Who_, Output extends Answer>(operation: Operation<Input, Who, Output, MemberDeps>) {
  return defineOperation(operation);
}

/** A membership by its id; one that is not the caller's is not-found, as one that does not exist. */
export const membershipIdSchema = z
  .string({ error: "membershipId must be a string." })
  .min(1, "membershipId must not be empty.")
  .max(100, "membershipId must be at most 100 characters.");

/**
 * One of the caller's members with every paid period: the cancel question's page
 * (app/routes/members/cancel.tsx) and `GET /api/v1/members/{id}`.
 */
export const readMember = defineMemberOperation({
  name: "readMember",
  who: "account-holder",
  input: z.object({ membershipId: membershipIdSchema }),
  refusals: ["not-found"],
  call: ({ caller, input, deps }) => readCreatorMember(deps.db, caller.uid, input.membershipId),
});

/**
 * The creator ends one of their members now, with a message mailed to them
 * (server/domains/memberships/creator-actions.ts): the Members page's Cancel
 * (app/routes/members/cancel.tsx) and `POST /api/v1/members/{id}/cancel`. The message's length
 * is the domain's to refuse, field by field, so the page shows it beside the box.
 */
export const cancelMemberOperation = defineMemberOperation({
  name: "cancelMember",
  who: "account-holder",
  input: z.object({ membershipId: membershipIdSchema, message: z.string({ error: "message must be a string." }).default("") }),
  // invalid-argument: the message is too long; aborted: ALREADY_ENDED or NOT_STARTED; unavailable: the provider did not answer.
  refusals: ["not-found", "invalid-argument", "aborted", "unavailable"],
  call: ({ caller, input, deps }) =>
    cancelMember(deps.db, { ...webhookDepsOf(deps), memberLinkKey: memberLinkKey(deps.sessionSecret) }, { uid: caller.uid, membershipId: input.membershipId, message: input.message }),
});
