import { Link } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { memberLinkKey } from "#server/domains/memberships/member-link";
import { listMyMemberships } from "#server/domains/memberships/my-memberships";
import { formatIsoDate, formatMoney } from "#isomorphic/format";
import { MEMBERSHIP_PER, MEMBERSHIP_STATUS_LABELS } from "#isomorphic/membership-limits";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/my-memberships";

/**
 * The signed-in fan's memberships: joined signed in, or as a guest with the address they have
 * verified. Each opens its member page by the same signed link the mails carry.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const listed = await listMyMemberships(context.db, memberLinkKey(context.sessionSecret), { uid: user.id, verifiedEmail: user.email });
  return { memberships: listed.memberships, bioOrigin: context.config.BIO_ORIGIN };
}

// Each row carries a member link, a permission: never cached.
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" });

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "My memberships" });

const dayText = (date: Date) => formatIsoDate(date.toISOString().slice(0, 10));

type Row = Route.ComponentProps["loaderData"]["memberships"][number];

/** "Renews on …", "Ends on …", "Ended on …", or nothing when there is no date to give. */
function nextDate(row: Row): string | null {
  if (row.status === "ended") return row.endedAt ? `Ended on ${dayText(row.endedAt)}` : null;
  if (!row.currentPeriodEnd) return null;
  if (row.status === "past_due") return `Payment failed — update your card (was due ${dayText(row.currentPeriodEnd)})`;
  return row.cancelAtPeriodEnd || row.status === "cancelled" ? `Ends on ${dayText(row.currentPeriodEnd)}` : `Renews on ${dayText(row.currentPeriodEnd)}`;
}

export default function MyMemberships({ loaderData }: Route.ComponentProps) {
  const { memberships, bioOrigin } = loaderData;
  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold">My memberships</h1>
      <p className="mt-2 text-muted">The creators you support every month or year. Manage opens the same page as the link in your membership emails.</p>
      {memberships.length === 0 ? (
        <p className="mt-8" data-testid="no-memberships">
          You're not a member of anyone yet. Join a creator from the tiers on their page.
        </p>
      ) : (
        <ul className="mt-8 space-y-4">
          {memberships.map((row) => (
            <li key={row.id} className="rounded-2xl border border-primary/15 p-5 shadow-sm" data-testid="my-membership">
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="min-w-0">
                  <h2 className="text-xl font-bold break-words">
                    <a href={`${bioOrigin}/${row.pageEnding}`}>{row.pageName}</a>
                  </h2>
                  <p className="mt-1 break-words">
                    {row.tierName} · {formatMoney(row.amount, row.currency)}
                    {MEMBERSHIP_PER[row.interval]}
                  </p>
                </div>
                <span className="inline-block rounded-full bg-primary/10 px-3 py-0.5 text-sm font-semibold">{MEMBERSHIP_STATUS_LABELS[row.status]}</span>
              </div>
              {nextDate(row) ? <p className="mt-2 text-sm">{nextDate(row)}</p> : null}
              <p className="mt-3">
                <Link to={row.managePath} className="font-semibold" aria-label={`Manage your membership of ${row.pageName}`}>
                  Manage
                </Link>
              </p>
            </li>
          ))}
        </ul>
      )}
      <p className="mt-8">
        <Link to="/app/account">Back to My Account</Link>
      </p>
    </div>
  );
}
