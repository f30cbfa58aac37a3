import { eq, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { sandboxAccounts, sandboxPayments, sandboxTransfers } from "#server/providers/payments/sandbox/schema";
import type { TransferInput } from "#server/providers/payments/port";
import { missing, SandboxRequestError } from "./errors";
import { sandboxId } from "./ids";

export type SandboxTransfer = typeof sandboxTransfers.$inferSelect;

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/**
 * Moves part of a held charge to a connected account, as Stripe's transfer with a
 * source_transaction (separate charges and transfers). The payment row is locked while the
 * transfer is made, so transfers and refunds of one charge are made one after the other and
 * together never exceed it: what remains is the charge's amount less what was refunded and what
 * was transferred already. Refused: an account that cannot receive payouts (not onboarded, or
 * disabled or deleted since), a charge that is not held (a destination charge's money went to its
 * account when it was paid). The same key returns the same transfer, whatever changed since.
 * Stripe tells no webhook of ours about a transfer, and neither does the sandbox.
 */
export async function createSandboxTransfer(db: Db, input: TransferInput, now = new Date()): Promise<{ transferId: string }> {
  const { amount, currency } = input;
  if (!Number.isSafeInteger(amount) || amount < 1) throw new SandboxRequestError("parameter_invalid", "amount must be a positive whole number of minor units");
  if (currency !== "usd") throw new SandboxRequestError("parameter_invalid", "The sandbox takes usd only, as a US platform's test account does");
  if (!input.transferGroup.trim() || input.transferGroup.length > 500) throw new SandboxRequestError("parameter_invalid", "transfer_group must be 1 to 500 characters");
  return db.transaction(async (tx) => {
    const [payment] = await tx.select().from(sandboxPayments).where(eq(sandboxPayments.chargeId, input.sourceChargeId)).for("update");
    if (!payment) throw missing("charge", input.sourceChargeId);
    const [same] = await tx.select().from(sandboxTransfers).where(eq(sandboxTransfers.idempotencyKey, input.idempotencyKey));
    if (same) {
      const sameRequest =
        same.paymentId === payment.id && same.accountId === input.destinationAccountId && same.amount === amount && same.currency === currency && same.transferGroup === input.transferGroup;
      if (!sameRequest) throw new SandboxRequestError("idempotency_key_in_use", "This idempotency key was used with other parameters");
      return { transferId: same.id };
    }
    if (payment.accountId !== null) {
      throw new SandboxRequestError("parameter_invalid", `Charge ${payment.chargeId} is a destination charge: its money went to its account when it was paid, so none of it is held to transfer.`);
    }
    if (currency !== payment.currency) throw new SandboxRequestError("parameter_invalid", `The transfer's currency (${currency}) is not its source charge's (${payment.currency}).`);
    const [account] = await tx.select().from(sandboxAccounts).where(eq(sandboxAccounts.id, input.destinationAccountId));
    if (!account) throw missing("destination", input.destinationAccountId);
    if (!account.payoutsEnabled) {
      throw new SandboxRequestError("account_not_ready", `The destination account ${account.id} cannot receive payouts (onboarding unfinished, or payouts disabled); nothing was transferred.`);
    }
    const [moved] = await tx
      .select({ total: sql<string>`coalesce(sum(${sandboxTransfers.amount}), 0)` })
      .from(sandboxTransfers)
      .where(eq(sandboxTransfers.paymentId, payment.id));
    const remaining = payment.amount - payment.amountRefunded - Number(moved?.total ?? 0);
    if (amount > remaining) {
      throw new SandboxRequestError(
        "balance_insufficient",
        `The transfer (${dollars(amount)}) is more than what remains of its source transaction ${payment.chargeId} (${dollars(remaining)}: its amount less what was refunded and transferred already).`,
      );
    }
    const transferId = sandboxId("tr");
    await tx.insert(sandboxTransfers).values({
      id: transferId,
      idempotencyKey: input.idempotencyKey,
      paymentId: payment.id,
      accountId: account.id,
      amount,
      currency,
      transferGroup: input.transferGroup,
      created: now,
    });
    return { transferId };
  });
}
