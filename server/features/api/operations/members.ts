import { z } from "zod";
import { refusal, success } from "#server/platform/errors";
import { apiOperationOf } from "#server/features/api/operation-door";
import { cancelMemberOperation, membershipIdSchema, readMember } from "#server/features/operations/payments/members";
import { listCreatorMembersAfter, type CreatorMember } from "#server/domains/memberships/creator-view";
import { monthlyAmount } from "#server/domains/memberships/members-csv";
import { defineApiOperation, type AnyApiOperation } from "#server/features/api/operation";
import { decodeCursor, encodeCursor, pageOf, pageQuery } from "#server/features/api/paging";
import { CANCEL_MESSAGE_MAX, MEMBER_STATES } from "#isomorphic/members";

const TAG = "Members";

const cancelBody = z.object({
  message: z
    .string()
    .max(CANCEL_MESSAGE_MAX, `Keep the message to ${CANCEL_MESSAGE_MAX} characters.`)
    .default("")
    .meta({ description: "Sent to the member by email and shown on their member page; may be empty." }),
});

const cancelledSchema = z
  .object({
    id: z.string(),
    alreadyCancelled: z.boolean().meta({ description: "True when you had cancelled this member before: nothing was sent again." }),
  })
  .meta({ id: "MemberCancelled" });

// The operations' own id schema: a path id they would refuse is refused as no such member before they run.
const memberPath = z.object({ id: membershipIdSchema.meta({ description: "The membership's id." }) });

const listQuery = pageQuery.extend({
  state: z
    .enum(MEMBER_STATES)
    .optional()
    .meta({ description: "active, past_due, cancelled (a member until the paid period ends) or ended; absent: every state." }),
  tierId: z.string().min(1).max(100).optional().meta({ description: "Only this tier's members." }),
});

// The keyset of the last member shown: when they joined in microseconds, and the membership's id.
const keysetShape = z.object({ t: z.string().regex(/^\d{1,17}$/), id: z.string().min(1).max(100) });

const paidPeriodSchema = z
  .object({
    paymentId: z.string().meta({ description: "The payment of this period (`GET /payments/{id}`; refund it with `POST /payments/{id}/refund`)." }),
    amount: z.int().meta({ description: "Minor units." }),
    currency: z.string(),
    status: z.enum(["completed", "refunded", "disputed"]),
    refundPending: z.boolean(),
    paidAt: z.iso.datetime(),
  })
  .meta({ id: "MemberPaidPeriod" });

const memberSchema = z
  .object({
    id: z.string(),
    bioPageId: z.string(),
    tierId: z.string(),
    tierName: z.string(),
    name: z.string().nullable().meta({ description: "The name the member gave you; null when they gave none." }),
    private: z.boolean().meta({ description: "They asked to stay off your public page." }),
    email: z.string().nullable(),
    amount: z.int().meta({ description: "What each period costs them, in minor units." }),
    currency: z.string(),
    interval: z.enum(["month", "year"]),
    monthlyAmount: z.int().meta({ description: "What they bring a month, as monthly recurring revenue counts it: a yearly amount ÷ 12, rounded half up to the minor unit." }),
    state: z.enum(MEMBER_STATES),
    joinedAt: z.iso.datetime(),
    renewsAt: z.iso.datetime().nullable().meta({ description: "The next charge (active or past due)." }),
    endsAt: z.iso.datetime().nullable().meta({ description: "When a cancelled membership ends, or when an ended one did." }),
    cancelMessage: z.string().nullable().meta({ description: "What you told them when you cancelled their membership; null if you did not." }),
    paidPeriods: z.array(paidPeriodSchema).meta({ description: "Newest first." }),
  })
  .meta({ id: "Member" });

function toPublicMember(member: CreatorMember): z.output<typeof memberSchema> {
  return {
    id: member.id,
    bioPageId: member.bioPageId,
    tierId: member.tierId,
    tierName: member.tierName,
    name: member.name,
    private: member.private,
    email: member.email,
    amount: member.amount,
    currency: member.currency,
    interval: member.interval,
    monthlyAmount: monthlyAmount(member),
    state: member.state,
    joinedAt: member.joined.toISOString(),
    renewsAt: member.renewsAt?.toISOString() ?? null,
    endsAt: member.endsAt?.toISOString() ?? null,
    cancelMessage: member.cancelMessage,
    paidPeriods: member.periods.map((p) => ({
      paymentId: p.sessionId,
      amount: p.amount,
      currency: p.currency,
      status: p.status as "completed" | "refunded" | "disputed",
      refundPending: p.refundPending,
      paidAt: p.paidAt.toISOString(),
    })),
  };
}

export const memberOperations: AnyApiOperation[] = [
  defineApiOperation({
    id: "listMembers",
    method: "get",
    path: "/members",
    tag: TAG,
    summary: "List your members",
    description: "The members of every tier on your bio pages, newest first, with their paid periods, as on the Members page.",
    scope: "members:read",
    query: listQuery,
    success: { status: 200, description: "A page of members.", schema: pageOf(memberSchema, "MemberPage") },
    // invalid_cursor: a cursor that is not one of ours.
    refusals: ["invalid-argument"],
    async handle({ caller, query, deps }) {
      const after = query.cursor === undefined ? null : decodeCursor(query.cursor, keysetShape);
      if (after === null && query.cursor !== undefined) return refusal("invalid-argument", "INVALID_CURSOR", "This cursor is not one of ours. Start again from the first page.");
      const page = await listCreatorMembersAfter(deps.db, caller.uid, {
        state: query.state ?? null,
        tierId: query.tierId ?? null,
        pageSize: query.limit,
        after: after && { joinedMicros: after.t, id: after.id },
      });
      return success({
        body: { data: page.members.map(toPublicMember), nextCursor: page.next ? encodeCursor({ t: page.next.joinedMicros, id: page.next.id }) : null },
      });
    },
  }),
  apiOperationOf(readMember, {
    id: "getMember",
    method: "get",
    path: "/members/{id}",
    tag: TAG,
    summary: "Read a member",
    description: "One of your members with every paid period. Anyone else's member is not found.",
    scope: "members:read",
    params: memberPath,
    success: { status: 200, description: "The member.", schema: memberSchema },
    input: ({ params }) => ({ membershipId: params.id }),
    answer: ({ member }) => toPublicMember(member),
  }),
  apiOperationOf(cancelMemberOperation, {
    id: "cancelMember",
    method: "post",
    path: "/members/{id}/cancel",
    tag: TAG,
    summary: "Cancel a member",
    description:
      "Ends the membership now, as the Members page's Cancel does: no further charge and no refund (refund a paid period with `POST /payments/{id}/refund`). " +
      "The member is emailed that you ended it, with your message. Asking again answers `alreadyCancelled: true` and sends nothing. " +
      "Refusals: `already_ended` (409), `not_started` (409, no subscription at the provider yet), `provider_unavailable` (503, the provider did not answer: retry later).",
    scope: "members:write",
    params: memberPath,
    body: cancelBody,
    success: { status: 200, description: "The membership was ended (or had been by you).", schema: cancelledSchema },
    input: ({ params, body }) => ({ membershipId: params.id, message: body.message }),
    answer: (done) => ({ id: done.membershipId, alreadyCancelled: done.alreadyCancelled }),
  }),
];
