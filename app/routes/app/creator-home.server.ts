import type { CreatorHome } from "#server/features/creator-home/creator-home";
import { bioPageAddress, qrSvg } from "#server/domains/bio/qr";
import { INSIGHTS_DAYS } from "#server/domains/bio/stats";
import { formatMoney } from "#server/domains/payments/ledger/money";
import type { CreatorHomeView } from "#app/components/home/CreatorHome";
import { figuresView } from "#app/routes/members/view.server";

const MONTH = new Intl.DateTimeFormat("en-GB", { month: "short", year: "numeric", timeZone: "UTC" });
const monthLabel = (month: string) => MONTH.format(new Date(`${month}-01T00:00:00Z`));

/** The home's figures in words, on the server: the browser gets no ledger maths (as view.server.ts of the payments screens). */
export async function creatorHomeView(home: CreatorHome, bioOrigin: string): Promise<CreatorHomeView> {
  const address = bioPageAddress(bioOrigin, home.page.customEnding);
  const [main, ...others] = home.earnings;
  const money = (minor: number, currency: string) => formatMoney(minor, currency);
  return {
    page: { id: home.page.id, name: home.page.name, address, nextStep: home.page.readiness.nextStep },
    pageCount: home.pageCount,
    qrSvg: await qrSvg(address),
    earnings: main
      ? {
          currency: main.currency.toUpperCase(),
          thisMonth: money(main.months.at(-1)!.net, main.currency),
          allTime: money(main.allTime.net, main.currency),
          months: main.months.map((m) => ({
            month: m.month,
            label: monthLabel(m.month),
            net: m.net,
            netText: money(m.net, main.currency),
            gross: money(m.gross, main.currency),
            fee: money(m.fee, main.currency),
          })),
          summary: `What you received per month over the last ${main.months.length} months, in ${main.currency.toUpperCase()}: ${money(
            main.months.reduce((sum, m) => sum + m.net, 0),
            main.currency,
          )} in all, ${money(main.months.at(-1)!.net, main.currency)} this month.`,
        }
      : null,
    heldInDeals: home.heldInDeals.length > 0 ? home.heldInDeals.map((h) => money(h.amount, h.currency)).join(" and ") : null,
    otherCurrencies: others.map((c) => ({ currency: c.currency.toUpperCase(), allTime: money(c.allTime.net, c.currency) })),
    views: { ...home.views, windowDays: INSIGHTS_DAYS },
    members: home.members ? figuresView(home.members) : null,
    supporters: home.supporters.map((s) => ({
      id: s.sessionId,
      name: s.name,
      private: s.private,
      amount: money(s.amount, s.currency),
      message: s.message,
      created: s.created.toISOString(),
      refunded: s.status === "refunded",
    })),
  };
}
