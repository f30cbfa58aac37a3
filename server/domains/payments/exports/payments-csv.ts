import { asc, eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { ledgerEntries, sponsorSessions } from "#server/platform/db/schema";
import { success, type Success } from "#server/platform/errors";
import { csvLine, safeText } from "#isomorphic/csv";

/**
 * The creator's received payments as a spreadsheet (docs/decisions/0036-creator-home.md):
 * one row per movement of money in the ledger — a payment, and later its
 * refund or dispute as a row of its own with negative amounts — so each money
 * column sums to the ledger's totals to the cent, per currency. Amounts are
 * decimal strings in major units ("25.00") with the currency beside them.
 */
export const PAYMENTS_CSV_COLUMNS = [
  "date",
  "supporter",
  "email",
  "private",
  "kind",
  "type",
  "currency",
  "gross",
  "fee",
  "net",
  "status",
  "session_id",
  "checkout_session_id",
  "payment_intent_id",
  "provider_reference",
  "message",
] as const;

/** Excel and Numbers read UTF-8 (supporters' names, messages) only with a byte order mark. */
const BOM = "\uFEFF";

/** "25.00" from 2500 usd, "-5" from -5 jpy: exact integer arithmetic, the currency's own number of decimals. */
export function minorToDecimal(minor: number, currency: string): string {
  const digits = new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() }).resolvedOptions().maximumFractionDigits ?? 2;
  const sign = minor < 0 ? "-" : "";
  const abs = Math.abs(minor);
  if (digits === 0) return `${sign}${abs}`;
  const unit = 10 ** digits;
  return `${sign}${Math.floor(abs / unit)}.${String(abs % unit).padStart(digits, "0")}`;
}

/** The file name and the whole file of `uid`'s received payments, oldest movement first. */
export async function receivedPaymentsCsv(db: Db, uid: string, now = new Date()): Promise<Success<{ filename: string; csv: string; rows: number }>> {
  const rows = await db
    .select({
      created: ledgerEntries.created,
      type: ledgerEntries.kind,
      currency: ledgerEntries.currency,
      gross: ledgerEntries.gross,
      fee: ledgerEntries.platformFee,
      net: ledgerEntries.net,
      reference: ledgerEntries.providerReference,
      sessionId: sponsorSessions.id,
      name: sponsorSessions.supporterName,
      email: sponsorSessions.sponsorEmail,
      private: sponsorSessions.private,
      kind: sponsorSessions.kind,
      status: sponsorSessions.status,
      checkoutId: sponsorSessions.providerCheckoutId,
      paymentIntentId: sponsorSessions.paymentIntentId,
      message: sponsorSessions.message,
    })
    .from(ledgerEntries)
    .innerJoin(sponsorSessions, eq(sponsorSessions.id, ledgerEntries.sessionId))
    .where(eq(sponsorSessions.posterUid, uid))
    .orderBy(asc(ledgerEntries.created), asc(ledgerEntries.id));
  const lines = rows.map((r) =>
    csvLine([
      r.created.toISOString(),
      safeText(r.name ?? ""),
      safeText(r.email ?? ""),
      r.private ? "yes" : "no",
      r.kind,
      r.type,
      r.currency.toUpperCase(),
      minorToDecimal(r.gross, r.currency),
      minorToDecimal(r.fee, r.currency),
      minorToDecimal(r.net, r.currency),
      r.status,
      r.sessionId,
      r.checkoutId ?? "",
      r.paymentIntentId ?? "",
      r.reference,
      safeText(r.message),
    ]),
  );
  const csv = BOM + [csvLine(PAYMENTS_CSV_COLUMNS), ...lines].join("\r\n") + "\r\n";
  return success({ filename: `payments-${now.toISOString().slice(0, 10)}.csv`, csv, rows: rows.length });
}
