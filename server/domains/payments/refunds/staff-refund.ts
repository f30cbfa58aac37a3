import type { Db } from "#server/platform/db/client";
import { fieldRefusal, type FieldRefusal } from "#server/platform/errors";
import { recordAudit, type Actor } from "#server/platform/audit/audit-log";
import type { PaymentProvider } from "#server/providers/payments/port";
import { refundAs, type RefundResult } from "#server/domains/payments/refunds/refunds";

/** How long a refund's reason may be: a sentence or two for the audit log, not an essay. */
export const REFUND_REASON_MAX = 500;

export type StaffRefundResult = RefundResult | FieldRefusal<{ reason: string }>;

/**
 * Staff refund any creator's completed payment, with a reason. The same refund once as the
 * creator's own (refunds.ts: one claim under the session's lock, the provider asked with the
 * idempotency key); the request names the staff member, and the claim's transaction writes the
 * `payment.refund` audit row, so an audit row exists exactly when staff started a refund. The
 * creator is told by the provider's refund webhook, as for a refund they made themselves.
 */
export async function refundAsStaff(
  db: Db,
  provider: PaymentProvider,
  input: { staff: { id: string; actor: Actor }; sessionId: string; reason: string },
): Promise<StaffRefundResult> {
  const reason = input.reason.trim();
  if (!reason) return fieldRefusal({ reason: "Say why this payment is refunded." });
  if (reason.length > REFUND_REASON_MAX) return fieldRefusal({ reason: `Keep the reason under ${REFUND_REASON_MAX} characters.` });
  return refundAs(
    db,
    provider,
    {
      uid: input.staff.id,
      mayRefund: () => true,
      onClaimed: (tx, session) =>
        recordAudit(tx, {
          actor: input.staff.actor,
          action: "payment.refund",
          subject: { type: "sponsor_session", id: session.id },
          reason,
          before: { status: session.status, amount: session.amount, currency: session.currency, creator: session.posterUid },
          after: { refund: "requested" },
        }),
    },
    input.sessionId,
  );
}
