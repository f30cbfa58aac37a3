import { asc, eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { ledgerEntries, sponsorSessions } from "#server/platform/db/schema";
import { success, type Success } from "#server/platform/errors";
import { csvLine, safeText } from "#isomorphic/csv";
import { allDealEarnings } from "#server/domains/payments/records/deal-earnings";

/**
 * The creator's received payments as a spreadsheet (docs/decisions/0036-creator-home.md):
 * one row per movement of money in the ledger — a payment, and later its
 * refund or dispute as a row of its own with negative amounts — so each money
 * column sums to the ledger's totals to the cent, per currency. Amounts are
 * decimal strings in major units ("25.00") with the currency beside them.
 *
 * A released deal is one row of `kind` "deal" and `type` "deal_release", dated at the release, its
 * sponsor's name as the supporter and "Deal: {title}" as the message: gross what the sponsor paid,
 * fee what the platform kept, net what was transferred — the sums of its funding's ledger rows, so
 * the columns still add up per currency. A deal refunded without a release is not the creator's money
 * and has no row (server/domains/payments/records/deal-earnings.ts).
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
  "deal_id",
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
  const deals = await allDealEarnings(db, uid);
  const tipLines = rows.map((r) => ({
    at: r.created,
    line: csvLine([
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
      "",
    ]),
  }));
  const dealLines = deals.map((d) => ({
    at: d.released,
    line: csvLine([
      d.released.toISOString(),
      safeText(d.sponsorName),
      // A deal's sponsor is a member: their address is theirs to give in the deal's thread, not the file's.
      "",
      "no",
      "deal",
      "deal_release",
      d.currency.toUpperCase(),
      minorToDecimal(d.gross, d.currency),
      minorToDecimal(d.fee, d.currency),
      minorToDecimal(d.net, d.currency),
      d.dealState,
      "",
      d.checkoutId ?? "",
      d.paymentIntentId ?? "",
      d.transferId,
      safeText(`Deal: ${d.title}`),
      d.dealId,
    ]),
  }));
  // Both lists come oldest first: merged in order (a stable merge keeps ties as each list had them).
  const lines: string[] = [];
  let t = 0;
  let d = 0;
  while (t < tipLines.length || d < dealLines.length) {
    const takeTip = d >= dealLines.length || (t < tipLines.length && tipLines[t]!.at.getTime() <= dealLines[d]!.at.getTime());
    lines.push(takeTip ? tipLines[t++]!.line : dealLines[d++]!.line);
  }
  const csv = BOM + [csvLine(PAYMENTS_CSV_COLUMNS), ...lines].join("\r\n") + "\r\n";
  return success({ filename: `payments-${now.toISOString().slice(0, 10)}.csv`, csv, rows: lines.length });
}
