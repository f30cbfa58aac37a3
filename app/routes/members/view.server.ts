import type { CreatorMember, CreatorMembers, MemberFigures, MonthMembers } from "#server/domains/memberships/creator-view";
import { formatMoney } from "#server/domains/payments/ledger/money";
import { disputeLine } from "#server/domains/payments/notices/dispute-notices";
import type { DateView, MemberView } from "#app/components/members/MemberRow";
import type { MemberMonthView } from "#app/components/members/MembersChart";
import { MEMBERSHIP_PER } from "#isomorphic/membership-limits";
import type { MemberFilter, MemberState } from "#isomorphic/members";

const DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
const MONTH = new Intl.DateTimeFormat("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });
const SHORT_MONTH = new Intl.DateTimeFormat("en-GB", { month: "short", timeZone: "UTC" });

const dateView = (at: Date): DateView => ({ iso: at.toISOString(), text: DAY.format(at) });
const monthDate = (month: string) => new Date(`${month}-01T00:00:00Z`);

/** One member in words, on the server: the browser gets no money maths (as the payments screens' view.server.ts). */
export function memberView(member: CreatorMember): MemberView {
  return {
    id: member.id,
    name: member.name,
    private: member.private,
    email: member.email,
    tierName: member.tierName,
    pageName: member.pageName,
    price: `${formatMoney(member.amount, member.currency)} ${MEMBERSHIP_PER[member.interval]}`,
    state: member.state,
    joined: dateView(member.joined),
    renewsAt: member.renewsAt ? dateView(member.renewsAt) : null,
    endsAt: member.endsAt ? dateView(member.endsAt) : null,
    cancelMessage: member.cancelMessage,
    periods: member.periods.map((p) => ({
      id: p.sessionId,
      paidAt: dateView(p.paidAt),
      amount: formatMoney(p.amount, p.currency),
      status: p.status,
      refundPending: p.refundPending,
      dispute: p.dispute ? disputeLine(p.dispute).text : null,
    })),
  };
}

export type FiguresView = {
  running: number;
  newThisMonth: number;
  lostThisMonth: number;
  /** The currency with the most recurring revenue, in words; null before the first member. */
  mrr: { amount: string; currency: string } | null;
  /** Any other currency's recurring revenue, in words. */
  otherMrr: string[];
};

export function figuresView(figures: MemberFigures): FiguresView {
  const [main, ...others] = figures.currencies;
  return {
    running: figures.running,
    newThisMonth: figures.newThisMonth,
    lostThisMonth: figures.lostThisMonth,
    mrr: main ? { amount: formatMoney(main.mrr, main.currency), currency: main.currency.toUpperCase() } : null,
    otherMrr: others.map((c) => `${formatMoney(c.mrr, c.currency)} in ${c.currency.toUpperCase()}`),
  };
}

export function monthsView(months: MonthMembers[]): { months: MemberMonthView[]; summary: string } {
  const views = months.map((m) => ({ ...m, label: MONTH.format(monthDate(m.month)), shortLabel: SHORT_MONTH.format(monthDate(m.month)) }));
  const first = views[0];
  const last = views.at(-1);
  const summary =
    first && last
      ? `Members at the end of each month from ${first.label} to ${last.label} (this month as of now): ${views.map((m) => `${m.label} ${m.members}`).join(", ")}.`
      : "No months to show.";
  return { months: views, summary };
}

export type MembersPageView = {
  filter: MemberFilter;
  pages: { id: string; name: string }[];
  tiers: { id: string; name: string; pageName: string; status: string; counts: Record<MemberState, number>; total: number }[];
  figures: FiguresView;
  months: MemberMonthView[];
  summary: string;
  members: MemberView[];
  hasMore: boolean;
};

export function membersPageView(read: CreatorMembers, filter: MemberFilter): MembersPageView {
  const { months, summary } = monthsView(read.months);
  return {
    filter,
    pages: read.pages,
    tiers: read.tiers.map((t) => ({ id: t.id, name: t.name, pageName: t.pageName, status: t.status, counts: t.counts, total: Object.values(t.counts).reduce((s, n) => s + n, 0) })),
    figures: figuresView(read.figures),
    months,
    summary,
    members: read.members.map(memberView),
    hasMore: read.hasMore,
  };
}
