import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { sandboxMembershipSubscriptions, sandboxPayments, sandboxRefunds, sandboxTransfers } from "#server/providers/payments/sandbox/schema";
import { findSandboxAccount, type SandboxAccount } from "./accounts";
import { sandboxDisputesByPayment } from "./disputes";

export type DashboardPayment = {
  id: string;
  created: Date;
  email: string;
  card: string;
  gross: number;
  processingFee: number;
  platformFee: number;
  net: number;
  currency: string;
  refunded: boolean;
  /** The chargeback on this payment, opened from the dashboard's test actions or the test hook. */
  dispute: { id: string; status: string; fee: number; evidenceDueBy: Date } | null;
};
export type DashboardRefund = { id: string; paymentId: string; created: Date; amount: number; debit: number; currency: string };
/** Money the platform moved here from a charge it held (a deal's release). */
export type DashboardTransfer = { id: string; created: Date; amount: number; currency: string; transferGroup: string };

export type SandboxDashboard = {
  account: SandboxAccount;
  /** What every payment and transfer brought the account less what each refund took back. */
  balance: number;
  payments: DashboardPayment[];
  refunds: DashboardRefund[];
  transfers: DashboardTransfer[];
  /** Membership subscriptions paying to the account that still run (active or past due): what the test clock moves on. */
  runningMemberships: number;
};

const RECENT = 100;

/**
 * The connected account's side of its money, as the payouts dashboard shows it.
 * Each destination charge brings the gross less the platform's fee (the
 * processing fee is the platform's); a refund takes that back (the reversed
 * transfer), so a refunded payment leaves the balance as it was. A transfer from
 * a charge the platform held brings its amount; a refund of a held charge takes
 * nothing from here.
 */
export async function readSandboxDashboard(db: Db, accountId: string): Promise<SandboxDashboard | null> {
  const account = await findSandboxAccount(db, accountId);
  if (!account) return null;
  const payments = await db.select().from(sandboxPayments).where(eq(sandboxPayments.accountId, accountId)).orderBy(desc(sandboxPayments.created)).limit(RECENT);
  const byId = new Map(payments.map((payment) => [payment.id, payment]));
  const refunds = payments.length
    ? await db.select().from(sandboxRefunds).where(inArray(sandboxRefunds.paymentId, [...byId.keys()])).orderBy(desc(sandboxRefunds.created))
    : [];
  const refundRows = refunds.map((refund) => ({
    id: refund.id,
    paymentId: refund.paymentId,
    created: refund.created,
    amount: refund.amount,
    debit: refund.amount - refund.applicationFeeRefunded,
    currency: refund.currency,
  }));
  // Over every payment, not only the recent ones listed.
  const [credited] = await db.select({ total: sql<string>`coalesce(sum(${sandboxPayments.net}), 0)` }).from(sandboxPayments).where(eq(sandboxPayments.accountId, accountId));
  const [debited] = await db
    .select({ total: sql<string>`coalesce(sum(${sandboxRefunds.amount} - ${sandboxRefunds.applicationFeeRefunded}), 0)` })
    .from(sandboxRefunds)
    .innerJoin(sandboxPayments, eq(sandboxPayments.id, sandboxRefunds.paymentId))
    .where(eq(sandboxPayments.accountId, accountId));
  const [transferred] = await db.select({ total: sql<string>`coalesce(sum(${sandboxTransfers.amount}), 0)` }).from(sandboxTransfers).where(eq(sandboxTransfers.accountId, accountId));
  const transfers = await db.select().from(sandboxTransfers).where(eq(sandboxTransfers.accountId, accountId)).orderBy(desc(sandboxTransfers.created)).limit(RECENT);
  const balance = Number(credited?.total ?? 0) + Number(transferred?.total ?? 0) - Number(debited?.total ?? 0);
  const disputes = await sandboxDisputesByPayment(db, [...byId.keys()]);
  const [memberships] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(sandboxMembershipSubscriptions)
    .where(and(eq(sandboxMembershipSubscriptions.accountId, accountId), inArray(sandboxMembershipSubscriptions.status, ["active", "past_due"])));
  return {
    account,
    balance,
    payments: payments.map((payment) => ({
      id: payment.id,
      created: payment.created,
      email: payment.email,
      card: `${payment.cardBrand} •••• ${payment.cardLast4}`,
      gross: payment.amount,
      processingFee: payment.fee,
      platformFee: payment.applicationFee,
      net: payment.net,
      currency: payment.currency,
      refunded: payment.amountRefunded > 0,
      dispute: ((d) => (d ? { id: d.id, status: d.status, fee: d.fee, evidenceDueBy: d.evidenceDueBy } : null))(disputes.get(payment.id)),
    })),
    refunds: refundRows,
    transfers: transfers.map((t) => ({ id: t.id, created: t.created, amount: t.amount, currency: t.currency, transferGroup: t.transferGroup })),
    runningMemberships: Number(memberships?.count ?? 0),
  };
}
