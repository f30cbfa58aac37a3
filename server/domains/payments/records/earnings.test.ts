import { parse } from "csv-parse/sync";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { bioPages, ledgerEntries, sponsorSessions, user } from "#server/platform/db/schema";
import { earningsByMonth, latestSupporters, monthWindow } from "#server/domains/payments/records/earnings";
import { ownerTotals, recordPayment, recordRefund } from "#server/domains/payments/ledger/ledger";
import { csvCell, safeText } from "#isomorphic/csv";
import { minorToDecimal, PAYMENTS_CSV_COLUMNS, receivedPaymentsCsv } from "#server/domains/payments/exports/payments-csv";

const NOW = new Date("2026-03-15T12:00:00Z");


/** Sums decimal strings exactly, in minor units. */
const toMinor = (value: string, digits = 2) => {
  const negative = value.startsWith("-");
  const [whole, frac = ""] = value.replace("-", "").split(".");
  const minor = Number(whole) * 10 ** digits + Number(frac.padEnd(digits, "0") || 0);
  return negative ? -minor : minor;
};

describe("money as text", () => {
  it("writes minor units as exact decimals in the currency's own digits", () => {
    expect(minorToDecimal(2500, "usd")).toBe("25.00");
    expect(minorToDecimal(-5, "usd")).toBe("-0.05");
    expect(minorToDecimal(1999, "eur")).toBe("19.99");
    expect(minorToDecimal(500, "jpy")).toBe("500");
    expect(minorToDecimal(-1234, "kwd")).toBe("-1.234");
  });

  it("quotes and neutralises what others typed", () => {
    expect(csvCell('She said "hi", then left\nbye')).toBe('"She said ""hi"", then left\nbye"');
    expect(safeText("=HYPERLINK(\"http://evil\")")).toBe("'=HYPERLINK(\"http://evil\")");
    for (const start of ["+", "-", "@", "\t", "\r"]) expect(safeText(`${start}1`).startsWith("'")).toBe(true);
    expect(safeText("Maya")).toBe("Maya");
  });

  it("charts the last 12 UTC months, oldest first, across a year", () => {
    const months = monthWindow(NOW);
    expect(months).toHaveLength(12);
    expect(months[0]).toBe("2025-04");
    expect(months.at(-1)).toBe("2026-03");
  });
});

describe.each(ENGINES)("earnings and the CSV on %s", (engine) => {
  const database = migratedDatabase(engine);
  const owner = "earn-owner";
  const other = "earn-other";
  let n = 0;

  /** A paid session along the ledger's own writers, at `at`. */
  async function paid(uid: string, amount: number, at: string, extra: Partial<typeof sponsorSessions.$inferInsert> = {}, currency = "usd") {
    const id = `earn_${++n}`;
    const fee = Math.round(amount * 0.05);
    await database.db.insert(sponsorSessions).values({
      id,
      provider: "sandbox",
      providerCheckoutId: `cs_${id}`,
      paymentIntentId: `pi_${id}`,
      posterUid: uid,
      bioPageId: uid === owner ? "earnpage" : null,
      destinationAccountId: "acct_x",
      amount,
      currency,
      platformFee: fee,
      message: "Thanks",
      status: "completed",
      created: new Date(at),
      ...extra,
    });
    await recordPayment(database.db, { sessionId: id, paymentIntentId: `pi_${id}`, gross: amount, providerFee: 30, platformFee: fee, currency });
    await database.db.update(ledgerEntries).set({ created: new Date(at) }).where(eq(ledgerEntries.sessionId, id));
    return { id, amount, fee };
  }

  async function refund(session: { id: string; amount: number; fee: number }, at: string, currency = "usd") {
    await recordRefund(database.db, { sessionId: session.id, paymentIntentId: `pi_${session.id}`, amount: session.amount, currency, payment: { gross: session.amount, platformFee: session.fee } });
    await database.db.execute(sql`update ledger_entries set created = ${new Date(at).toISOString()}::timestamptz where session_id = ${session.id} and kind = 'refund'`);
    await database.db.update(sponsorSessions).set({ status: "refunded" }).where(eq(sponsorSessions.id, session.id));
  }

  beforeAll(async () => {
    await database.db.insert(user).values([
      { id: owner, name: "Owner", email: "earn-owner@earn.example", emailVerified: true },
      { id: other, name: "Other", email: "earn-other@earn.example", emailVerified: true },
    ]);
    await database.db.insert(bioPages).values({ id: "earnpage", uid: owner, customEnding: "earn_page", name: "Earn" });
    await paid(owner, 2500, "2025-01-10T00:00:00Z"); // before the window: all time only
    await paid(owner, 500, "2026-02-27T23:59:00Z", { supporterName: "=cmd|' /C calc'!A0", message: 'Love it, "really"\nline two' });
    const refunded = await paid(owner, 1000, "2026-02-28T10:00:00Z", { supporterName: "Ana", private: true });
    await refund(refunded, "2026-03-01T00:00:01Z"); // refunded in the next month
    await paid(owner, 333, "2026-03-14T08:00:00Z", { sponsorEmail: "+1@fan.example" });
    await paid(owner, 700, "2026-03-02T08:00:00Z", {}, "eur");
    await paid(other, 9999, "2026-03-03T08:00:00Z");
    // A checkout never paid: no ledger entry, not a supporter.
    await database.db.insert(sponsorSessions).values({ id: "earn_pending", provider: "sandbox", posterUid: owner, destinationAccountId: "acct_x", amount: 100, message: "m", status: "pending" });
  });

  it("counts each movement in its UTC month: a refund subtracts in the month it happened, gross − fee = net", async () => {
    const [usd, eur, ...rest] = await earningsByMonth(database.db, owner, NOW);
    expect(rest).toEqual([]);
    expect(usd!.currency).toBe("usd");
    const feb = usd!.months.find((m) => m.month === "2026-02")!;
    const mar = usd!.months.find((m) => m.month === "2026-03")!;
    expect(feb).toEqual({ month: "2026-02", gross: 1500, fee: 25 + 50, net: 1500 - 75 });
    expect(mar).toEqual({ month: "2026-03", gross: -1000 + 333, fee: -50 + 17, net: -1000 + 333 - (-50 + 17) });
    expect(usd!.allTime).toEqual({ gross: 2500 + 500 + 333, fee: 125 + 25 + 17, net: 2500 + 500 + 333 - 167 });
    expect(usd!.months.reduce((s, m) => s + m.net, 0)).toBe(usd!.allTime.net - (2500 - 125));
    expect(eur).toMatchObject({ currency: "eur", allTime: { gross: 700, fee: 35, net: 665 } });
    const [totals] = await ownerTotals(database.db, owner).then((t) => t.filter((x) => x.currency === "usd"));
    expect(usd!.allTime).toEqual({ gross: totals!.gross, fee: totals!.platformFee, net: totals!.net });
  });

  it("lists paid supporters newest first, with the name given or none, and never someone else's", async () => {
    const supporters = await latestSupporters(database.db, owner);
    expect(supporters.map((s) => s.amount)).toEqual([333, 700, 1000, 500, 2500]);
    expect(supporters.find((s) => s.amount === 1000)).toMatchObject({ name: "Ana", private: true, status: "refunded" });
    expect(supporters.find((s) => s.amount === 333)!.name).toBeNull();
  });

  it("exports one row per movement whose columns sum to the ledger to the cent, safe to open in a spreadsheet", async () => {
    const { csv, rows, filename } = await receivedPaymentsCsv(database.db, owner, NOW);
    expect(filename).toBe("payments-2026-03-15.csv");
    expect(csv.startsWith("\uFEFF")).toBe(true);
    const [header, ...data] = parse(csv.slice(1)) as string[][];
    expect(header).toEqual([...PAYMENTS_CSV_COLUMNS]);
    expect(data).toHaveLength(rows);
    expect(rows).toBe(6);
    const col = (name: (typeof PAYMENTS_CSV_COLUMNS)[number]) => PAYMENTS_CSV_COLUMNS.indexOf(name);
    for (const currency of ["usd", "eur"]) {
      const mine = data.filter((r) => r[col("currency")] === currency.toUpperCase());
      const [ledger] = (await ownerTotals(database.db, owner)).filter((t) => t.currency === currency);
      const total = (name: "gross" | "fee" | "net") => mine.reduce((s, r) => s + toMinor(r[col(name)]!), 0);
      expect({ gross: total("gross"), fee: total("fee"), net: total("net") }).toEqual({ gross: ledger!.gross, fee: ledger!.platformFee, net: ledger!.net });
    }
    const refundRow = data.find((r) => r[col("type")] === "refund")!;
    expect(refundRow.slice(col("gross"), col("net") + 1)).toEqual(["-10.00", "-0.50", "-9.50"]);
    expect(refundRow[col("supporter")]).toBe("Ana");
    expect(refundRow[col("private")]).toBe("yes");
    const hostile = data.find((r) => r[col("gross")] === "5.00")!;
    expect(hostile[col("supporter")]).toBe("'=cmd|' /C calc'!A0");
    expect(hostile[col("message")]).toBe('Love it, "really"\nline two');
    expect(hostile[col("payment_intent_id")]).toMatch(/^pi_earn_/);
    expect(hostile[col("checkout_session_id")]).toMatch(/^cs_earn_/);
    expect(data.find((r) => r[col("gross")] === "3.33")![col("email")]).toBe("'+1@fan.example");
    expect(csv).not.toContain("99.99");
  });
});
