import type { ReactNode } from "react";
import { Link } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { readCreatorMembers } from "#server/domains/memberships/creator-view";
import { InsightsTableToggle } from "#app/components/bio/InsightsTables";
import { MemberRow, type MemberView } from "#app/components/members/MemberRow";
import { MembersChart, MembersTable } from "#app/components/members/MembersChart";
import { useRefundFollowUp } from "#app/components/sponsor-payments/use-refund-follow-up";
import { MEMBER_STATE_HINTS, MEMBER_STATE_LABELS, MEMBER_STATES, membersCsvHref, membersHref, parseMemberFilter, type MemberFilter, type MemberState } from "#isomorphic/members";
import { secondaryButton } from "#page-kit/forms";
import { pageMeta } from "#page-kit/meta";
import { refuseWith } from "#page-kit/respond.server";
import type { Route } from "./+types/members";
import { membersPageView } from "./view.server";

/**
 * Members: who stays. The creator's members across their pages (or one page): how many run now,
 * the monthly recurring revenue, who joined and left this month, twelve months of members, and
 * the list by tier and state with each paid period's Refund, a member's Cancel and the CSV.
 * Filters are plain links, so the page works without JavaScript (server/domains/memberships/creator-view.ts).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const url = new URL(request.url);
  const filter = parseMemberFilter(url.searchParams);
  const read = await readCreatorMembers(context.db, user.id, filter);
  if (read.kind === "ERROR") refuseWith(read);
  const firstPage = read.pages[0];
  return {
    ...membersPageView(read, filter),
    returnTo: `${url.pathname}${url.search}`,
    // Tiers are set in the page's editor; before there is a page, making one comes first.
    tiersEditor: firstPage ? `/edit/${encodeURIComponent(firstPage.id)}` : "/app/account/bizbio/new",
  };
}

/** A person's members and their addresses: never kept by a shared cache. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Members", noindex: true });

const card = "rounded-2xl border border-primary/15 bg-white p-5 shadow-sm";
const chip = "inline-flex items-center rounded-full border px-3 py-1 text-sm no-underline";
const chipLook = (current: boolean) => (current ? `${chip} border-primary bg-primary font-semibold text-white` : `${chip} border-primary/30 bg-white text-ink hover:bg-primary/5`);

function FilterLink({ to, current, children }: { to: string; current: boolean; children: ReactNode }) {
  return (
    <li>
      <Link to={to} className={chipLook(current)} aria-current={current ? "page" : undefined} preventScrollReset>
        {children}
      </Link>
    </li>
  );
}

function Figure({ label, value, hint }: { label: string; value: ReactNode; hint?: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="text-3xl font-bold tabular-nums text-primary">{value}</dd>
      {hint ? <dd className="text-xs text-muted">{hint}</dd> : null}
    </div>
  );
}

/** The listed members by tier, then by state, in the order the server sorted them. */
function grouped(members: MemberView[]) {
  const tiers: { key: string; tierName: string; pageName: string; states: { state: MemberState; members: MemberView[] }[] }[] = [];
  for (const member of members) {
    const key = `${member.pageName}\u0000${member.tierName}`;
    let tier = tiers.at(-1);
    if (!tier || tier.key !== key) tiers.push((tier = { key, tierName: member.tierName, pageName: member.pageName, states: [] }));
    let group = tier.states.at(-1);
    if (!group || group.state !== member.state) tier.states.push((group = { state: member.state, members: [] }));
    group.members.push(member);
  }
  return tiers;
}

export default function Members({ loaderData }: Route.ComponentProps) {
  const { filter, pages, tiers, figures, months, summary, members, hasMore, returnTo, tiersEditor } = loaderData;
  useRefundFollowUp(members.some((m) => m.periods.some((p) => p.refundPending)));
  const at = (change: Partial<MemberFilter>) => membersHref({ ...filter, page: 0, ...change });
  const stateCounts = MEMBER_STATES.map((state) => ({
    state,
    count: tiers.filter((t) => !filter.tierId || t.id === filter.tierId).reduce((sum, t) => sum + t.counts[state], 0),
  }));
  const everyone = tiers.reduce((sum, t) => sum + t.total, 0);
  const filtered = filter.tierId !== null || filter.state !== null;
  const showPage = pages.length > 1 && !filter.pageId;

  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold">Members</h1>
      <p className="mt-2 text-muted">
        The people who support you every month or year, by tier. Amounts are what each member pays; months are UTC months.
      </p>

      {pages.length > 1 ? (
        <nav aria-label="Pages" className="mt-4">
          <ul className="flex flex-wrap gap-2">
            <FilterLink to={membersHref({})} current={!filter.pageId}>
              All pages
            </FilterLink>
            {pages.map((p) => (
              <FilterLink key={p.id} to={membersHref({ pageId: p.id })} current={filter.pageId === p.id}>
                {p.name}
              </FilterLink>
            ))}
          </ul>
        </nav>
      ) : null}

      {everyone === 0 && tiers.length === 0 ? (
        <section aria-labelledby="no-members" className="mt-8 rounded-2xl bg-primary/5 p-6">
          <h2 id="no-members" className="text-lg font-semibold">
            No members yet
          </h2>
          <p className="mt-1 text-muted">
            Members support you with a set amount every month or year, and get what your tier promises them. Add a membership tier to your page: fans can then join from it, and
            everyone who does shows up here with what they pay.
          </p>
          <p className="mt-3">
            <Link to={tiersEditor} className="font-semibold">
              Add membership tiers to your page
            </Link>
          </p>
        </section>
      ) : (
        <>
          <section aria-labelledby="figures-heading" className={`${card} mt-6`}>
            <h2 id="figures-heading" className="text-lg font-bold">
              Now
            </h2>
            <dl className="mt-3 grid grid-cols-2 gap-4 sm:grid-cols-4">
              <Figure label="Members" value={figures.running} hint="Active, past due, or cancelled with paid time left" />
              <Figure
                label="Monthly recurring revenue"
                value={figures.mrr ? figures.mrr.amount : "None"}
                hint={figures.mrr ? `In ${figures.mrr.currency}: each member's amount, a yearly one ÷ 12` : undefined}
              />
              <Figure label="New this month" value={figures.newThisMonth} />
              <Figure label="Lost this month" value={figures.lostThisMonth} hint="Ended since the 1st" />
            </dl>
            {figures.otherMrr.length > 0 ? <p className="mt-2 text-sm text-muted">Also: {figures.otherMrr.join(", ")} a month.</p> : null}
          </section>

          <section aria-labelledby="months-heading" className={`${card} mt-6`}>
            <h2 id="months-heading" className="text-lg font-bold">
              Members at each month&rsquo;s end
            </h2>
            <p className="text-sm text-muted">The last 12 UTC months; this month counts members as of now.</p>
            <div className="mt-4">
              <MembersChart months={months} summary={summary} />
            </div>
            <InsightsTableToggle>
              <MembersTable months={months} />
            </InsightsTableToggle>
          </section>

          <section aria-labelledby="list-heading" className="mt-8">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <h2 id="list-heading" className="text-2xl font-bold">
                Member list
              </h2>
              {/* A file, not a page: a plain link the browser downloads, with the list's filters. */}
              <a href={membersCsvHref(filter)} download className={`${secondaryButton} px-4 py-2 text-sm no-underline`}>
                Download CSV
              </a>
            </div>
            <nav aria-label="Filter members" className="mt-4 space-y-3">
              <div>
                <p className="text-sm font-semibold" id="tier-filter">
                  Tier
                </p>
                <ul className="mt-1 flex flex-wrap gap-2" aria-labelledby="tier-filter">
                  <FilterLink to={at({ tierId: null })} current={!filter.tierId}>
                    All tiers ({everyone})
                  </FilterLink>
                  {tiers.map((t) => (
                    <FilterLink key={t.id} to={at({ tierId: t.id })} current={filter.tierId === t.id}>
                      {t.name}
                      {showPage ? ` · ${t.pageName}` : ""} ({t.total}){t.status !== "active" ? ` · ${t.status}` : ""}
                    </FilterLink>
                  ))}
                </ul>
              </div>
              <div>
                <p className="text-sm font-semibold" id="state-filter">
                  State
                </p>
                <ul className="mt-1 flex flex-wrap gap-2" aria-labelledby="state-filter">
                  <FilterLink to={at({ state: null })} current={!filter.state}>
                    Every state
                  </FilterLink>
                  {stateCounts.map(({ state, count }) => (
                    <FilterLink key={state} to={at({ state })} current={filter.state === state}>
                      {MEMBER_STATE_LABELS[state]} ({count})
                    </FilterLink>
                  ))}
                </ul>
              </div>
            </nav>

            {members.length === 0 ? (
              <div className="mt-6 rounded-2xl bg-primary/5 p-6">
                <p className="font-semibold">{filter.page > 0 ? "There are no more members to show." : filtered ? "No member matches these filters." : "No members yet."}</p>
                <p className="mt-1 text-muted">
                  {filtered ? (
                    <Link to={membersHref({ pageId: filter.pageId })}>Show every member</Link>
                  ) : (
                    <>
                      Share your page: fans join a tier from it. <Link to={tiersEditor}>Edit your tiers</Link>
                    </>
                  )}
                </p>
              </div>
            ) : (
              grouped(members).map((tier) => (
                <section key={tier.key} aria-label={`${tier.tierName}${showPage ? ` on ${tier.pageName}` : ""}`} className="mt-8">
                  <h3 className="text-xl font-bold">
                    {tier.tierName}
                    {showPage ? <span className="font-normal text-muted"> · {tier.pageName}</span> : null}
                  </h3>
                  {tier.states.map((group) => (
                    <div key={group.state} className="mt-4">
                      <h4 className="font-semibold">
                        {MEMBER_STATE_LABELS[group.state]} <span className="font-normal text-muted">({group.members.length})</span>
                      </h4>
                      <p className="text-sm text-muted">{MEMBER_STATE_HINTS[group.state]}</p>
                      <ul className="mt-2 space-y-4" aria-label={`${tier.tierName}: ${MEMBER_STATE_LABELS[group.state]}`}>
                        {group.members.map((member) => (
                          <MemberRow key={member.id} member={member} returnTo={returnTo} showPage={false} />
                        ))}
                      </ul>
                    </div>
                  ))}
                </section>
              ))
            )}

            {filter.page > 0 || hasMore ? (
              <nav aria-label="More members" className="mt-8 flex justify-between gap-4">
                {filter.page > 0 ? <Link to={membersHref({ ...filter, page: filter.page - 1 })}>Previous members</Link> : <span />}
                {hasMore ? <Link to={membersHref({ ...filter, page: filter.page + 1 })}>More members</Link> : null}
              </nav>
            ) : null}
          </section>
        </>
      )}
    </div>
  );
}
