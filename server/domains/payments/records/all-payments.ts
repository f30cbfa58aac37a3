import type { SponsorSessionKind } from "#server/platform/db/schema";
import { and, desc, eq, gte, inArray, lt, lte, or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Db } from "#server/platform/db/client";
import { afterTimeKeyset, decodeTimeKeyset, encodeTimeKeyset, microsOf } from "#server/platform/db/keyset";
import { bioPages, ledgerEntries, paymentEvents, refundRequests, SPONSOR_SESSION_KINDS, SPONSOR_SESSION_STATUSES, sponsorSessions, user, type SponsorSessionStatus } from "#server/platform/db/schema";
import { PAYMENT_KIND_LABELS } from "#isomorphic/supporters";
import { parseAmountInput } from "#isomorphic/amount-input";

/**
 * Every sponsor payment on the platform, for the back office: filtered, newest first, a page at a
 * time by keyset (created, id), with the filtered set's totals per currency from the ledger. The
 * filters are all conditions on sponsor_sessions alone (the rest through sub-selects), so the
 * page and its totals select exactly the same sessions.
 */
export type PaymentFilters = {
  status: SponsorSessionStatus | null;
  /** A tip, a sponsorship or a membership's paid period. */
  kind: SponsorSessionKind | null;
  /** A creator's email, or the ending of one of their pages. */
  creator: string | null;
  /** YYYY-MM-DD, whole UTC days, both ends included. */
  from: string | null;
  to: string | null;
  /** Minor units of the payment's amount, both ends included. */
  minAmount: number | null;
  maxAmount: number | null;
  /** Our session id, the checkout (cs_), payment intent (pi_), charge (ch_), refund (re_) or dispute id. */
  providerId: string | null;
};

export const NO_FILTERS: PaymentFilters = { status: null, kind: null, creator: null, from: null, to: null, minAmount: null, maxAmount: null, providerId: null };

export type FilterReading = { filters: PaymentFilters; problems: string[] };

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const validDate = (text: string) => DATE.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text);

/** The filters from the page's address; a field that does not read is left out and named in `problems`. */
export function readPaymentFilters(params: URLSearchParams): FilterReading {
  const problems: string[] = [];
  const text = (name: string) => (params.get(name) ?? "").trim().slice(0, 200) || null;
  const status = text("status");
  const filters: PaymentFilters = { ...NO_FILTERS, creator: text("creator")?.toLowerCase() ?? null, providerId: text("id") };
  if (status && (SPONSOR_SESSION_STATUSES as readonly string[]).includes(status)) filters.status = status as SponsorSessionStatus;
  const kind = text("kind");
  if (kind && (SPONSOR_SESSION_KINDS as readonly string[]).includes(kind)) filters.kind = kind as SponsorSessionKind;
  for (const [name, label] of [["from", "From"], ["to", "To"]] as const) {
    const value = text(name);
    if (value && !validDate(value)) problems.push(`${label} must be a date (YYYY-MM-DD).`);
    else filters[name] = value;
  }
  for (const [name, key, label] of [["min", "minAmount", "Minimum amount"], ["max", "maxAmount", "Maximum amount"]] as const) {
    const value = text(name);
    if (!value) continue;
    const minor = parseAmountInput(value);
    if (minor === null) problems.push(`${label} must be an amount like 25 or 25.50.`);
    else filters[key] = minor;
  }
  return { filters, problems };
}

/** The kind filter's choices, each with its label (every kind must have one: this fails to compile otherwise). */
export const PAYMENT_KIND_CHOICES: readonly { kind: SponsorSessionKind; label: string }[] = SPONSOR_SESSION_KINDS.map((kind) => ({ kind, label: PAYMENT_KIND_LABELS[kind] }));

const startOfDay = (day: string) => new Date(`${day}T00:00:00Z`);
const dayAfter = (day: string) => new Date(startOfDay(day).getTime() + 86_400_000);

function conditions(f: PaymentFilters): SQL[] {
  const s = sponsorSessions;
  const where: SQL[] = [];
  if (f.status) where.push(eq(s.status, f.status));
  if (f.kind) where.push(eq(s.kind, f.kind));
  if (f.from) where.push(gte(s.created, startOfDay(f.from)));
  if (f.to) where.push(lt(s.created, dayAfter(f.to)));
  if (f.minAmount !== null) where.push(gte(s.amount, f.minAmount));
  if (f.maxAmount !== null) where.push(lte(s.amount, f.maxAmount));
  if (f.creator) {
    const creator = f.creator;
    where.push(
      or(
        inArray(s.posterUid, sql`(select ${user.id} from ${user} where lower(${user.email}) = ${creator})`),
        inArray(s.posterUid, sql`(select ${bioPages.uid} from ${bioPages} where ${bioPages.customEnding} = ${creator})`),
        inArray(s.bioPageId, sql`(select ${bioPages.id} from ${bioPages} where ${bioPages.customEnding} = ${creator})`),
      )!,
    );
  }
  if (f.providerId) {
    const id = f.providerId;
    where.push(
      or(
        eq(s.id, id),
        eq(s.providerCheckoutId, id),
        eq(s.paymentIntentId, id),
        inArray(s.id, sql`(select ${refundRequests.sessionId} from ${refundRequests} where ${refundRequests.providerRefundId} = ${id})`),
        // Disputes are kept by their id on the ledger.
        inArray(s.id, sql`(select ${ledgerEntries.sessionId} from ${ledgerEntries} where ${ledgerEntries.providerReference} = ${id})`),
        // We keep no charge id of our own: the provider's events name it beside the payment intent.
        inArray(s.paymentIntentId, sql`(select ${paymentEvents.payload}->>'paymentIntentId' from ${paymentEvents} where ${paymentEvents.payload}->>'chargeId' = ${id})`),
      )!,
    );
  }
  return where;
}

/** Sums of ledger columns, exact: bigint in the database, read back as text, never a float on the way. */
export type MoneySums = { currency: string; gross: number; providerFee: number; platformFee: number; net: number };

const sumOf = (column: AnyPgColumn) => sql<string>`coalesce(sum(${column}), 0)::bigint::text`;
const SUM_COLUMNS = {
  currency: ledgerEntries.currency,
  gross: sumOf(ledgerEntries.gross),
  providerFee: sumOf(ledgerEntries.providerFee),
  platformFee: sumOf(ledgerEntries.platformFee),
  net: sumOf(ledgerEntries.net),
};

function exact(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new Error(`a ledger sum beyond exact arithmetic: ${text}`);
  return value;
}
const toSums = (row: { currency: string; gross: string; providerFee: string; platformFee: string; net: string }): MoneySums => ({
  currency: row.currency,
  gross: exact(row.gross),
  providerFee: exact(row.providerFee),
  platformFee: exact(row.platformFee),
  net: exact(row.net),
});

export type PaymentRow = {
  id: string;
  created: Date;
  kind: SponsorSessionKind;
  status: SponsorSessionStatus;
  amount: number;
  currency: string;
  sponsorEmail: string | null;
  creatorEmail: string | null;
  pageEnding: string | null;
  paymentIntentId: string | null;
  /** The session's ledger, summed per currency (none for a payment that never settled). */
  money: MoneySums[];
};

export type PaymentPage = { rows: PaymentRow[]; nextCursor: string | null };

export const PAYMENTS_PAGE_SIZE = 25;

export async function listPayments(db: Db, filters: PaymentFilters, options: { cursor?: string | null; pageSize?: number } = {}): Promise<PaymentPage> {
  const pageSize = options.pageSize ?? PAYMENTS_PAGE_SIZE;
  const where = conditions(filters);
  const after = decodeTimeKeyset(options.cursor);
  // Newest first: the next page holds what sorts after the last row, by (created, id) descending.
  if (after) where.push(afterTimeKeyset(sponsorSessions.created, sponsorSessions.id, after));
  const found = await db
    .select({
      id: sponsorSessions.id,
      created: sponsorSessions.created,
      micros: microsOf(sponsorSessions.created),
      kind: sponsorSessions.kind,
      status: sponsorSessions.status,
      amount: sponsorSessions.amount,
      currency: sponsorSessions.currency,
      sponsorEmail: sponsorSessions.sponsorEmail,
      paymentIntentId: sponsorSessions.paymentIntentId,
      creatorEmail: user.email,
      pageEnding: bioPages.customEnding,
    })
    .from(sponsorSessions)
    .leftJoin(user, eq(user.id, sponsorSessions.posterUid))
    .leftJoin(bioPages, eq(bioPages.id, sponsorSessions.bioPageId))
    .where(and(...where))
    .orderBy(desc(sponsorSessions.created), desc(sponsorSessions.id))
    .limit(pageSize + 1);
  const shown = found.slice(0, pageSize);
  const sums = shown.length
    ? await db
        .select({ sessionId: ledgerEntries.sessionId, ...SUM_COLUMNS })
        .from(ledgerEntries)
        .where(inArray(ledgerEntries.sessionId, shown.map((r) => r.id)))
        .groupBy(ledgerEntries.sessionId, ledgerEntries.currency)
        .orderBy(ledgerEntries.currency)
    : [];
  const last = shown.at(-1);
  return {
    rows: shown.map(({ micros: _micros, ...row }) => ({ ...row, money: sums.filter((s) => s.sessionId === row.id).map(toSums) })),
    nextCursor: found.length > pageSize && last ? encodeTimeKeyset({ micros: last.micros, id: last.id }) : null,
  };
}

/** The filtered set's ledger totals per currency: what the sponsors paid, the processor's fees, the platform's fee, the creators' share. */
export async function paymentTotals(db: Db, filters: PaymentFilters): Promise<MoneySums[]> {
  const rows = await db
    .select(SUM_COLUMNS)
    .from(ledgerEntries)
    .innerJoin(sponsorSessions, eq(sponsorSessions.id, ledgerEntries.sessionId))
    .where(and(...conditions(filters)))
    .groupBy(ledgerEntries.currency)
    .orderBy(ledgerEntries.currency);
  return rows.map(toSums);
}

export type AllPayments = PaymentPage & { totals: MoneySums[] };

export async function allPayments(db: Db, filters: PaymentFilters, cursor: string | null): Promise<AllPayments> {
  const [page, totals] = await Promise.all([listPayments(db, filters, { cursor }), paymentTotals(db, filters)]);
  return { ...page, totals };
}
