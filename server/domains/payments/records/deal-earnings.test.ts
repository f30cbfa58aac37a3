import { parse } from "csv-parse/sync";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { agreedDeal, payForDeal } from "#tests/support/deals";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { notificationDeps } from "#tests/support/payments";
import { testSandbox } from "#tests/support/test-sandbox";
import { deals, opportunityPosts } from "#server/platform/db/schema";
import { moveDeal } from "#server/domains/deals/act";
import { refundCancelledDeal } from "#server/domains/deals/refunds";
import { releaseDeal } from "#server/domains/deals/release";
import { submitDeliverable } from "#server/domains/deals/work";
import { ownerTotals } from "#server/domains/payments/ledger/ledger";
import { receivedPaymentsCsv } from "#server/domains/payments/exports/payments-csv";
import { readCreatorHome } from "#server/features/creator-home/creator-home";
import { sandboxDemoPayoutAccount } from "#server/providers/payments/sandbox/demo-account";
import { seedDatabase } from "#server/tools/seed";
import { DEMO_ACCOUNTS } from "#server/tools/seed/demo-accounts";
import { creatorHomeView } from "#app/routes/app/creator-home.server";
import { dealEarnings, dealEarningsKeysetFrom, dealEarningsKeysetText, heldInDeals } from "./deal-earnings";
import { earningsByMonth } from "./earnings";
import { recentActivity } from "./sponsor-sessions";

const creator = DEMO_ACCOUNTS.creator.id;
const sponsor = DEMO_ACCOUNTS.sponsor.id;

describe("a page of deal earnings goes on from a cursor in the address", () => {
  it("reads back what it wrote, and nothing else", () => {
    const keyset = { releasedMicros: "1767225600123456", entryId: "0b6f8f1e-2a54-4c1e-9a53-2f1d7c4e8a10" };
    expect(dealEarningsKeysetFrom(dealEarningsKeysetText(keyset))).toEqual(keyset);
    for (const bad of [null, "", "abc", "12_notauuid", "-1_0b6f8f1e-2a54-4c1e-9a53-2f1d7c4e8a10", "1_0b6f8f1e-2a54-4c1e-9a53-2f1d7c4e8a10'--"]) {
      expect(dealEarningsKeysetFrom(bad)).toBeNull();
    }
  });
});

describe.each(ENGINES)("a deal's money in the creator's earnings on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const db = () => database.db;
  const deps = () => notificationDeps(db());
  let briefs: string[];
  const move = (uid: string, dealId: string, action: "request_cancel" | "agree_cancel") =>
    moveDeal(db(), deps(), { uid, dealId, move: action === "request_cancel" ? { action, reason: "Plans changed." } : { action }, network: "198.51.100.4" });

  /** A deal agreed at `price` dollars, paid (10% to the platform) and, with `release`, its work handed in and the creator paid. */
  async function bookedDeal(brief: number, price: string, { release }: { release: boolean }) {
    const dealId = await agreedDeal(db(), { creator, sponsor, brief: briefs[brief]! }, { price, sponsorApproves: false });
    const { fundingId } = await payForDeal(db(), sandbox.provider, sponsor, dealId, 10);
    if (release) {
      expect(await submitDeliverable(db(), deps(), { uid: creator, dealId, deliverable: 0, liveUrl: "https://youtu.be/abc123", note: "" })).toMatchObject({ kind: "SUCCESS", state: "approved" });
      expect(await releaseDeal(db(), sandbox.provider, deps(), dealId)).toBe("RELEASED");
    }
    const [row] = await db().select({ title: deals.title }).from(deals).where(eq(deals.id, dealId));
    return { dealId, fundingId, title: row!.title };
  }

  let before: { totals: Awaited<ReturnType<typeof ownerTotals>>; months: Awaited<ReturnType<typeof earningsByMonth>> };
  let released: Awaited<ReturnType<typeof bookedDeal>>;
  let later: Awaited<ReturnType<typeof bookedDeal>>;
  let refunded: Awaited<ReturnType<typeof bookedDeal>>;
  let held: Awaited<ReturnType<typeof bookedDeal>>;

  beforeAll(async () => {
    await seedDatabase(db(), { payoutAccount: sandboxDemoPayoutAccount });
    const posts = await db().select({ id: opportunityPosts.id, kind: opportunityPosts.kind, poster: opportunityPosts.posterUid }).from(opportunityPosts);
    briefs = posts.filter((p) => p.poster === sponsor && p.kind === "brief").map((p) => p.id);
    before = { totals: await ownerTotals(db(), creator), months: await earningsByMonth(db(), creator) };

    released = await bookedDeal(0, "1000", { release: true });
    later = await bookedDeal(1, "200", { release: true });
    // Booked, then cancelled by both sides and the sponsor's money sent back: never the creator's.
    refunded = await bookedDeal(2, "300", { release: false });
    expect(await move(creator, refunded.dealId, "request_cancel")).toMatchObject({ kind: "SUCCESS" });
    expect(await move(sponsor, refunded.dealId, "agree_cancel")).toMatchObject({ kind: "SUCCESS" });
    expect(await refundCancelledDeal(db(), sandbox.provider, refunded.dealId)).toBe("REFUNDED");
    // Booked, work not handed in yet: held for the creator.
    held = await bookedDeal(0, "450", { release: false });
  });

  it("lists each released deal once, newest first, with what the sponsor paid, the fee and what was transferred", async () => {
    const { earnings, next } = await dealEarnings(db(), creator);
    expect(next).toBeNull();
    expect(earnings.map((e) => [e.dealId, e.title, e.sponsorName, e.currency, e.gross, e.fee, e.net])).toEqual([
      [later.dealId, later.title, DEMO_ACCOUNTS.sponsor.profileName, "usd", 20_000, 2_000, 18_000],
      [released.dealId, released.title, DEMO_ACCOUNTS.sponsor.profileName, "usd", 100_000, 10_000, 90_000],
    ]);
    expect(earnings[0]!.released.getTime()).toBeGreaterThanOrEqual(earnings[1]!.released.getTime());
    // The sponsor earned nothing from the deals they paid for.
    expect((await dealEarnings(db(), sponsor)).earnings).toEqual([]);
  });

  it("pages by keyset without showing a deal twice or skipping one", async () => {
    const first = await dealEarnings(db(), creator, { pageSize: 1 });
    expect(first.earnings.map((e) => e.dealId)).toEqual([later.dealId]);
    expect(first.next).not.toBeNull();
    const second = await dealEarnings(db(), creator, { pageSize: 1, after: dealEarningsKeysetFrom(dealEarningsKeysetText(first.next!)) });
    expect(second.earnings.map((e) => e.dealId)).toEqual([released.dealId]);
    expect(second.next).toBeNull();
  });

  it("adds released deals to the month's and all-time earnings and to the totals, and nothing of a refunded or held one", async () => {
    const usd = (rows: Awaited<ReturnType<typeof earningsByMonth>>) => rows.find((c) => c.currency === "usd") ?? { allTime: { gross: 0, fee: 0, net: 0 }, months: [] };
    const [after, was] = [usd(await earningsByMonth(db(), creator)), usd(before.months)];
    expect({ gross: after.allTime.gross - was.allTime.gross, fee: after.allTime.fee - was.allTime.fee, net: after.allTime.net - was.allTime.net }).toEqual({
      gross: 120_000,
      fee: 12_000,
      net: 108_000,
    });
    expect(after.months.at(-1)!.net - (was.months.at(-1)?.net ?? 0)).toBe(108_000);

    const totals = (await ownerTotals(db(), creator)).find((t) => t.currency === "usd")!;
    const wasTotals = before.totals.find((t) => t.currency === "usd") ?? { gross: 0, platformFee: 0, net: 0 };
    expect([totals.gross - wasTotals.gross, totals.platformFee - wasTotals.platformFee, totals.net - wasTotals.net]).toEqual([120_000, 12_000, 108_000]);
  });

  it("shows the money held in booked deals on the creator's home, apart from the earnings", async () => {
    expect(await heldInDeals(db(), creator)).toEqual([{ currency: "usd", amount: 45_000 }]);
    expect(await heldInDeals(db(), sponsor)).toEqual([]);
    const { home } = await readCreatorHome(db(), creator);
    expect(home?.heldInDeals).toEqual([{ currency: "usd", amount: 45_000 }]);
    const view = await creatorHomeView(home!, "http://bio.test");
    expect(view.heldInDeals).toBe("$450.00");
    expect(view.earnings).not.toBeNull();
  });

  it("puts each release in the Sponsors Dashboard's Recent Activity, newest first, within its limit", async () => {
    const activity = await recentActivity(db(), creator);
    const dealLines = activity.filter((a) => a.deal !== null);
    expect(dealLines.map((a) => [a.deal!.id, a.kind, a.gross, a.net])).toEqual([
      [later.dealId, "deal_release", 20_000, 18_000],
      [released.dealId, "deal_release", 100_000, 90_000],
    ]);
    const times = activity.map((a) => a.created.getTime());
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect((await recentActivity(db(), creator, 1)).map((a) => a.deal?.id)).toEqual([later.dealId]);
  });

  it("writes one CSV row per released deal, told apart from tips by its kind", async () => {
    const { csv, rows } = await receivedPaymentsCsv(db(), creator);
    const records = parse(csv.replace(/^\uFEFF/, ""), { columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(rows);
    const dealRows = records.filter((r) => r.kind === "deal");
    expect(dealRows.map((r) => [r.deal_id, r.type, r.supporter, r.currency, r.gross, r.fee, r.net, r.status, r.message, r.session_id])).toEqual([
      [released.dealId, "deal_release", DEMO_ACCOUNTS.sponsor.profileName, "USD", "1000.00", "100.00", "900.00", "completed", `Deal: ${released.title}`, ""],
      [later.dealId, "deal_release", DEMO_ACCOUNTS.sponsor.profileName, "USD", "200.00", "20.00", "180.00", "completed", `Deal: ${later.title}`, ""],
    ]);
    expect(dealRows.every((r) => r.provider_reference !== "" && r.payment_intent_id !== "")).toBe(true);
    // Tips keep their own kinds and no deal id; the file stays in time order.
    expect(records.filter((r) => r.kind !== "deal").every((r) => ["tip", "sponsorship"].includes(r.kind!) && r.deal_id === "")).toBe(true);
    const dates = records.map((r) => r.date!);
    expect([...dates].sort()).toEqual(dates);
    expect(records.some((r) => r.deal_id === refunded.dealId || r.deal_id === held.dealId)).toBe(false);
  });
});
