import { and, asc, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { bioPages, disputes, membershipTiers, memberships, refundRequests, sponsorSessions } from "#server/platform/db/schema";
import type { DisputeStatus, MembershipInterval, MembershipTierStatus, SponsorSessionStatus } from "#server/platform/db/schema";
import { domainError, success, type DomainError, type Success } from "#server/platform/errors";
import { MEMBER_STATES, MEMBERS_PAGE_SIZE, type MemberFilter, type MemberState } from "#isomorphic/members";

/**
 * The creator's view of who stays: their members across their pages (or one page), by tier and
 * state, the figures (monthly recurring revenue, new and lost this month) and twelve months of
 * members, each member's paid periods. Every figure is an exact integer counted by the database.
 *
 * A membership is a member from when it started until it ended: `ended_at` once over, or the
 * period's end of one cancelled to end then. Pending and expired checkouts were never members.
 * Time is UTC throughout, as the earnings' months are.
 */

/** When a membership stops being a member (null: it runs on). */
const ENDS = sql.raw(`(case
  when memberships.status = 'ended' then coalesce(memberships.ended_at, memberships.current_period_end, memberships.updated_at)
  when memberships.status = 'cancelled' then coalesce(memberships.ended_at, memberships.current_period_end)
  else null end)`);
/** When it became a member. */
const JOINED = sql.raw(`coalesce(memberships.started_at, memberships.created)`);
/** What it brings in a month, in minor units: a yearly amount ÷ 12, rounded half up, membership by membership. */
const MONTHLY = sql.raw(`(case when memberships.interval = 'year' then (memberships.amount + 6) / 12 else memberships.amount end)`);
/** The statuses that were ever a member. */
const WERE_MEMBERS = sql.raw(`memberships.status in ('active', 'past_due', 'cancelled', 'ended')`);

/** A member at `at`: joined before it and not ended by then. */
const memberAt = (at: SQL) => sql`(${JOINED} < ${at} and (${ENDS} is null or ${ENDS} >= ${at}))`;

/** The state the creator sees at `at`: a cancelled membership whose period is over is ended, whatever the provider's event says yet. */
const stateAt = (at: SQL) =>
  sql<MemberState>`(case
    when memberships.status = 'ended' or (${ENDS} is not null and ${ENDS} < ${at}) then 'ended'
    when memberships.status = 'cancelled' or memberships.cancel_at_period_end then 'cancelled'
    else memberships.status end)`;

const instant = (at: Date) => sql`${at.toISOString()}::timestamptz`;

/** Memberships of `uid`'s own pages (or of one of them) that were ever members. */
function scopeOf(uid: string, pageId: string | null): SQL {
  return and(eq(bioPages.uid, uid), pageId ? eq(memberships.bioPageId, pageId) : undefined, WERE_MEMBERS)!;
}

export type CurrencyFigures = {
  currency: string;
  /** Members now: active, past due, or cancelled with paid time left. */
  running: number;
  /** Monthly recurring revenue in minor units: each running membership's amount, a yearly one ÷ 12 rounded to the minor unit. */
  mrr: number;
};

export type MemberFigures = {
  /** Members now, all currencies. */
  running: number;
  /** Joined since the first of this UTC month. */
  newThisMonth: number;
  /** Stopped being members since the first of this UTC month. */
  lostThisMonth: number;
  /** Per currency, the most recurring revenue first (the page shows the first, names the others). */
  currencies: CurrencyFigures[];
};

/** One UTC month of the chart: members at its end (now, for this month), who joined and who left in it. */
export type MonthMembers = { month: string; members: number; joined: number; lost: number };

const monthStart = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));

/** The figures of `uid`'s members now (of one page, or all their pages). */
export async function memberFigures(db: Db, uid: string, pageId: string | null = null, now = new Date()): Promise<MemberFigures> {
  const at = instant(now);
  const start = instant(monthStart(now));
  const rows = await db
    .select({
      currency: memberships.currency,
      running: sql<number>`(count(*) filter (where ${memberAt(at)}))::int`,
      mrr: sql<string>`(coalesce(sum(${MONTHLY}) filter (where ${memberAt(at)}), 0))::bigint`,
      joined: sql<number>`(count(*) filter (where ${JOINED} >= ${start} and ${JOINED} < ${at}))::int`,
      lost: sql<number>`(count(*) filter (where ${ENDS} >= ${start} and ${ENDS} < ${at}))::int`,
    })
    .from(memberships)
    .innerJoin(bioPages, eq(bioPages.id, memberships.bioPageId))
    .where(scopeOf(uid, pageId))
    .groupBy(memberships.currency);
  const currencies = rows
    .map((r) => ({ currency: r.currency, running: Number(r.running), mrr: Number(r.mrr) }))
    .filter((c) => c.running > 0 || c.mrr > 0)
    .sort((a, b) => b.mrr - a.mrr || b.running - a.running || a.currency.localeCompare(b.currency));
  return {
    running: rows.reduce((sum, r) => sum + Number(r.running), 0),
    newThisMonth: rows.reduce((sum, r) => sum + Number(r.joined), 0),
    lostThisMonth: rows.reduce((sum, r) => sum + Number(r.lost), 0),
    currencies,
  };
}

/** The last twelve UTC months, oldest first: members at each month's end (this month: now), joined and lost in it. */
export async function membersByMonth(db: Db, uid: string, pageId: string | null = null, now = new Date()): Promise<MonthMembers[]> {
  const at = instant(now);
  const pageClause = pageId ? sql`and memberships.bio_page_id = ${pageId}` : sql``;
  const result = await db.execute(sql`
    with months as (
      select to_char(gs, 'YYYY-MM') as month,
             (gs at time zone 'UTC') as starts,
             least(((gs + interval '1 month') at time zone 'UTC'), ${at}) as ends
      from generate_series(date_trunc('month', ${at} at time zone 'UTC') - interval '11 months',
                           date_trunc('month', ${at} at time zone 'UTC'), interval '1 month') as gs
    ), mine as (
      select ${JOINED} as joined, ${ENDS} as ends
      from memberships join bio_pages on bio_pages.id = memberships.bio_page_id
      where bio_pages.uid = ${uid} ${pageClause} and ${WERE_MEMBERS}
    )
    select months.month,
      (count(mine.joined) filter (where mine.joined < months.ends and (mine.ends is null or mine.ends >= months.ends)))::int as members,
      (count(mine.joined) filter (where mine.joined >= months.starts and mine.joined < months.ends))::int as joined,
      (count(mine.joined) filter (where mine.ends >= months.starts and mine.ends < months.ends))::int as lost
    from months left join mine on true
    group by months.month
    order by months.month`);
  const rows = (result as unknown as { rows: Array<{ month: string; members: number; joined: number; lost: number }> }).rows;
  return rows.map((r) => ({ month: r.month, members: Number(r.members), joined: Number(r.joined), lost: Number(r.lost) }));
}

/** One paid period of a membership: a sponsor session of kind "membership", refundable as any payment. */
export type PaidPeriod = {
  sessionId: string;
  amount: number;
  currency: string;
  status: SponsorSessionStatus;
  paidAt: Date;
  /** A refund the provider has not confirmed yet (the status stays completed until its webhook). */
  refundPending: boolean;
  dispute: { status: DisputeStatus; reason: string; evidenceDueBy: Date | null } | null;
};

export type CreatorMember = {
  id: string;
  bioPageId: string;
  pageName: string;
  tierId: string;
  tierName: string;
  /** The name the member gave at checkout; the creator sees it even when they asked to stay off the public wall (`private`). */
  name: string | null;
  private: boolean;
  email: string | null;
  amount: number;
  currency: string;
  interval: MembershipInterval;
  state: MemberState;
  joined: Date;
  /** The next charge, for a member who renews. */
  renewsAt: Date | null;
  /** When a cancelled membership ends, or when an ended one did. */
  endsAt: Date | null;
  /** What the creator told the member when they cancelled them. */
  cancelMessage: string | null;
  /** Newest first. */
  periods: PaidPeriod[];
};

export type MembersTier = { id: string; name: string; bioPageId: string; pageName: string; status: MembershipTierStatus; counts: Record<MemberState, number> };

export type CreatorMembers = {
  /** Every page of the creator's, to filter by. */
  pages: { id: string; name: string }[];
  /** The tiers of the pages in view, in each page's order, with members by state (the filters' counts). */
  tiers: MembersTier[];
  figures: MemberFigures;
  months: MonthMembers[];
  /** The filtered members, by tier (the page's order) then state, newest first within; one page of them. */
  members: CreatorMember[];
  hasMore: boolean;
};

/** Not a page, tier or member of the caller's: the same answer as one that does not exist. */
export type MembersNotFound = DomainError<"not-found">;

const memberColumns = (at: SQL) => ({
  id: memberships.id,
  bioPageId: memberships.bioPageId,
  pageName: bioPages.name,
  tierId: memberships.tierId,
  tierName: membershipTiers.name,
  name: memberships.memberName,
  private: memberships.private,
  email: memberships.memberEmail,
  amount: memberships.amount,
  currency: memberships.currency,
  interval: memberships.interval,
  state: stateAt(at),
  joined: sql<Date>`${JOINED}`.mapWith(memberships.created),
  currentPeriodEnd: memberships.currentPeriodEnd,
  endsAt: sql<Date | null>`${ENDS}`.mapWith(memberships.created),
  cancelMessage: memberships.cancelMessage,
});

const STATE_LIST = sql.raw(`array[${MEMBER_STATES.map((s) => `'${s}'`).join(", ")}]::text[]`);

function selectMembers(db: Db, at: SQL, where: SQL) {
  const columns = memberColumns(at);
  return db
    .select(columns)
    .from(memberships)
    .innerJoin(bioPages, eq(bioPages.id, memberships.bioPageId))
    .innerJoin(membershipTiers, eq(membershipTiers.id, memberships.tierId))
    .where(where)
    .orderBy(asc(bioPages.name), asc(bioPages.id), asc(membershipTiers.position), asc(membershipTiers.id), asc(sql`array_position(${STATE_LIST}, ${stateAt(at)})`), desc(sql`${JOINED}`), asc(memberships.id));
}

type MemberRow = Awaited<ReturnType<typeof selectMembers>>[number];

/** The paid periods of these memberships, newest first, with each one's refund and dispute as Supporters shows them. */
async function periodsOf(db: Db, membershipIds: string[]): Promise<Map<string, PaidPeriod[]>> {
  const byMembership = new Map<string, PaidPeriod[]>();
  if (membershipIds.length === 0) return byMembership;
  const rows = await db
    .select({
      membershipId: sponsorSessions.membershipId,
      sessionId: sponsorSessions.id,
      amount: sponsorSessions.amount,
      currency: sponsorSessions.currency,
      status: sponsorSessions.status,
      paidAt: sponsorSessions.created,
      refundStatus: refundRequests.status,
      disputeStatus: disputes.status,
      disputeReason: disputes.reason,
      disputeDueBy: disputes.evidenceDueBy,
    })
    .from(sponsorSessions)
    .leftJoin(refundRequests, eq(refundRequests.sessionId, sponsorSessions.id))
    .leftJoin(disputes, eq(disputes.sessionId, sponsorSessions.id))
    .where(and(inArray(sponsorSessions.membershipId, membershipIds), eq(sponsorSessions.kind, "membership"), inArray(sponsorSessions.status, ["completed", "refunded", "disputed"])))
    .orderBy(desc(sponsorSessions.created), desc(sponsorSessions.id));
  for (const row of rows) {
    const list = byMembership.get(row.membershipId!) ?? [];
    list.push({
      sessionId: row.sessionId,
      amount: row.amount,
      currency: row.currency,
      status: row.status,
      paidAt: row.paidAt,
      refundPending: row.status === "completed" && (row.refundStatus === "requested" || row.refundStatus === "pending"),
      dispute: row.disputeStatus ? { status: row.disputeStatus, reason: row.disputeReason ?? "", evidenceDueBy: row.disputeDueBy } : null,
    });
    byMembership.set(row.membershipId!, list);
  }
  return byMembership;
}

function toMember(row: MemberRow, periods: PaidPeriod[]): CreatorMember {
  const { currentPeriodEnd, endsAt, ...rest } = row;
  const renews = row.state === "active" || row.state === "past_due";
  return {
    ...rest,
    name: row.name?.trim() ? row.name : null,
    email: row.email?.trim() ? row.email : null,
    renewsAt: renews ? currentPeriodEnd : null,
    endsAt: renews ? null : (endsAt ?? currentPeriodEnd),
    periods,
  };
}

/**
 * The Members screen of `uid`: figures, months, tiers with counts, and one page of members as
 * filtered. A page or tier that is not theirs is not found, as one that does not exist.
 */
export async function readCreatorMembers(db: Db, uid: string, filter: MemberFilter, now = new Date()): Promise<Success<CreatorMembers> | MembersNotFound> {
  const pages = await db.select({ id: bioPages.id, name: bioPages.name }).from(bioPages).where(eq(bioPages.uid, uid)).orderBy(asc(bioPages.name), asc(bioPages.id));
  if (filter.pageId && !pages.some((p) => p.id === filter.pageId)) return domainError("not-found", "There is no such page of yours.");
  const pageIds = filter.pageId ? [filter.pageId] : pages.map((p) => p.id);
  const pageName = new Map(pages.map((p) => [p.id, p.name]));
  const tierRows =
    pageIds.length === 0
      ? []
      : await db
          .select({ id: membershipTiers.id, name: membershipTiers.name, bioPageId: membershipTiers.bioPageId, status: membershipTiers.status })
          .from(membershipTiers)
          .innerJoin(bioPages, eq(bioPages.id, membershipTiers.bioPageId))
          .where(inArray(membershipTiers.bioPageId, pageIds))
          .orderBy(asc(bioPages.name), asc(bioPages.id), asc(membershipTiers.position), asc(membershipTiers.id));
  if (filter.tierId && !tierRows.some((t) => t.id === filter.tierId)) return domainError("not-found", "There is no such tier on your pages.");

  const at = instant(now);
  const state = stateAt(at);
  const counted = await db
    .select({ tierId: memberships.tierId, state, n: sql<number>`count(*)::int` })
    .from(memberships)
    .innerJoin(bioPages, eq(bioPages.id, memberships.bioPageId))
    .where(scopeOf(uid, filter.pageId))
    // By position: the state's expression carries its own parameter, which the database would not match twice.
    .groupBy(sql.raw("1"), sql.raw("2"));
  const zero = (): Record<MemberState, number> => ({ active: 0, past_due: 0, cancelled: 0, ended: 0 });
  const counts = new Map<string, Record<MemberState, number>>();
  for (const row of counted) {
    const byState = counts.get(row.tierId) ?? zero();
    byState[row.state] = Number(row.n);
    counts.set(row.tierId, byState);
  }
  const tiers = tierRows.map((t) => ({ ...t, pageName: pageName.get(t.bioPageId) ?? "", counts: counts.get(t.id) ?? zero() }));

  const where = and(scopeOf(uid, filter.pageId), filter.tierId ? eq(memberships.tierId, filter.tierId) : undefined, filter.state ? sql`${state} = ${filter.state}` : undefined)!;
  const [figures, months, rows] = await Promise.all([
    memberFigures(db, uid, filter.pageId, now),
    membersByMonth(db, uid, filter.pageId, now),
    selectMembers(db, at, where)
      .limit(MEMBERS_PAGE_SIZE + 1)
      .offset(filter.page * MEMBERS_PAGE_SIZE),
  ]);
  const shown = rows.slice(0, MEMBERS_PAGE_SIZE);
  const periods = await periodsOf(db, shown.map((r) => r.id));
  return success({ pages, tiers, figures, months, members: shown.map((r) => toMember(r, periods.get(r.id) ?? [])), hasMore: rows.length > MEMBERS_PAGE_SIZE });
}

/** Every member as filtered, for the CSV: no paging. */
export async function allCreatorMembers(db: Db, uid: string, filter: Omit<MemberFilter, "page">, now = new Date()): Promise<Success<{ members: CreatorMember[] }> | MembersNotFound> {
  if (filter.pageId) {
    const [page] = await db.select({ id: bioPages.id }).from(bioPages).where(and(eq(bioPages.id, filter.pageId), eq(bioPages.uid, uid)));
    if (!page) return domainError("not-found", "There is no such page of yours.");
  }
  const at = instant(now);
  const where = and(scopeOf(uid, filter.pageId), filter.tierId ? eq(memberships.tierId, filter.tierId) : undefined, filter.state ? sql`${stateAt(at)} = ${filter.state}` : undefined)!;
  const rows = await selectMembers(db, at, where);
  const periods = new Map<string, PaidPeriod[]>();
  // In slices: a long list's ids stay well under the database's parameter limit.
  for (let i = 0; i < rows.length; i += 1000) for (const [id, list] of await periodsOf(db, rows.slice(i, i + 1000).map((r) => r.id))) periods.set(id, list);
  return success({ members: rows.map((r) => toMember(r, periods.get(r.id) ?? [])) });
}

/** Pages of the API's list: members of `uid`, newest joined first, by keyset (joined in microseconds, id). */
export type MemberKeyset = { joinedMicros: string; id: string };

/** The API's list: `uid`'s members, newest first, a page after `after`. */
export async function listCreatorMembersAfter(
  db: Db,
  uid: string,
  options: { state?: MemberState | null; tierId?: string | null; after?: MemberKeyset | null; pageSize: number },
  now = new Date(),
): Promise<{ members: CreatorMember[]; next: MemberKeyset | null }> {
  const at = instant(now);
  const micros = sql`(extract(epoch from ${JOINED}) * 1000000)::bigint`;
  const after = options.after ? sql`(${micros}, memberships.id) < (${options.after.joinedMicros}::bigint, ${options.after.id})` : undefined;
  const where = and(scopeOf(uid, null), options.tierId ? eq(memberships.tierId, options.tierId) : undefined, options.state ? sql`${stateAt(at)} = ${options.state}` : undefined, after)!;
  const rows = await db
    .select({ ...memberColumns(at), joinedMicros: sql<string>`${micros}::text` })
    .from(memberships)
    .innerJoin(bioPages, eq(bioPages.id, memberships.bioPageId))
    .innerJoin(membershipTiers, eq(membershipTiers.id, memberships.tierId))
    .where(where)
    .orderBy(desc(micros), desc(memberships.id))
    .limit(options.pageSize + 1);
  const shown = rows.slice(0, options.pageSize);
  const periods = await periodsOf(db, shown.map((r) => r.id));
  const last = shown.at(-1);
  return {
    members: shown.map(({ joinedMicros: _, ...r }) => toMember(r, periods.get(r.id) ?? [])),
    next: rows.length > options.pageSize && last ? { joinedMicros: last.joinedMicros, id: last.id } : null,
  };
}

/** One member of `uid`'s, with every paid period; anyone else's is not found. */
export async function readCreatorMember(db: Db, uid: string, membershipId: string, now = new Date()): Promise<Success<{ member: CreatorMember }> | MembersNotFound> {
  const [row] = await selectMembers(db, instant(now), and(scopeOf(uid, null), eq(memberships.id, membershipId))!);
  if (!row) return domainError("not-found", "There is no such member of yours.");
  const periods = await periodsOf(db, [row.id]);
  return success({ member: toMember(row, periods.get(row.id) ?? []) });
}
