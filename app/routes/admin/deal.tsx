import type { ReactNode } from "react";
import { Link } from "react-router";
import { requireStaff } from "#server/domains/auth/staff-guard";
import { dealRecordForStaff, type StaffDealParty } from "#server/features/back-office/deals";
import { formatMoney } from "#server/domains/payments/ledger/money";
import { refuse } from "#page-kit/respond.server";
import { pageMeta } from "#page-kit/meta";
import { DataTable } from "#app/components/admin/DataTable";
import { utcTime } from "#app/components/admin/format";
import type { Route } from "./+types/deal";

const DEALS_PATH = "/app/admin/deals";
const USAGE = { none: "None", organic: "Organic", paid: "Paid" } as const;

/** GET /app/admin/deals/:dealId: the deal's whole record, as a dispute's reviewer reads it. Staff only read it here. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const deal = await dealRecordForStaff(context.db, params.dealId);
  if (!deal) refuse("not-found");
  // Who an account id on the deal is: a party by their email, or the bare id once the account is gone.
  const who = (uid: string | null) => {
    if (uid === null) return "—";
    const party = [deal.creator, deal.sponsor].find((p) => p?.uid === uid);
    return party ? party.email : `Deleted account ${uid}`;
  };
  return {
    deal: {
      id: deal.id,
      title: deal.title,
      state: deal.state,
      origin: deal.origin,
      openedBy: deal.openedBy,
      waitingOn: deal.waitingOn ?? "nobody",
      opportunityId: deal.opportunityId,
      pitch: deal.pitch,
      links: deal.links,
      created: utcTime(deal.createdAt),
      updated: utcTime(deal.updatedAt),
      accepted: deal.accepted ? `Version ${deal.accepted.version} by ${who(deal.accepted.by)}, ${utcTime(deal.accepted.at)}, from ${deal.accepted.from ?? "an unknown network"}` : null,
      ended: deal.endedBy ? `${deal.state === "declined" ? "Declined" : "Withdrawn"} by ${who(deal.endedBy)}${deal.declineMessage ? `: “${deal.declineMessage}”` : ""}` : null,
    },
    creator: deal.creator,
    sponsor: deal.sponsor,
    versions: deal.versions.map((v) => ({
      version: v.version,
      proposedBy: v.proposedBy,
      price: formatMoney(v.price, v.currency),
      deliverables: v.deliverables.map((d) => `${d.channel}: ${d.format}, due ${d.dueDate}`),
      rights: v.usageRights === "none" ? USAGE.none : `${USAGE[v.usageRights]}, ${v.usageDays} days`,
      exclusivity: v.exclusivityDays ? `${v.exclusivityDays} days` : "None",
      approval: v.sponsorApproves ? `Sponsor approves (silence approves after ${v.autoApproveDays} days)` : "No approval",
      disclosure: v.disclosureRequired ? "Required" : "Not required",
      message: v.message,
      created: utcTime(v.createdAt),
    })),
    activity: deal.activity.map((a) => ({
      seq: a.seq,
      at: utcTime(a.at),
      who: a.actorUid === null ? "—" : a.actorEmail ? `${a.actorEmail}${a.actorSide ? ` (${a.actorSide})` : ""}` : `Deleted account ${a.actorUid}`,
      action: a.action,
      move: `${a.fromState ?? "—"} → ${a.toState}`,
      version: a.termsVersion === null ? "—" : String(a.termsVersion),
      network: a.network ?? "—",
    })),
  };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Deal", noindex: true });

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="font-semibold">{term}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </>
  );
}

function Party({ side, party }: { side: string; party: StaffDealParty }) {
  return (
    <Fact term={side}>
      {party ? (
        <>
          {party.name} &lt;
          <Link to={`/app/admin/accounts/${encodeURIComponent(party.uid)}`} className="break-all">
            {party.email}
          </Link>
          &gt;
        </>
      ) : (
        "Account deleted"
      )}
    </Fact>
  );
}

export default function Deal({ loaderData }: Route.ComponentProps) {
  const { deal, creator, sponsor, versions, activity } = loaderData;
  return (
    <>
      <p className="text-sm">
        <Link to={DEALS_PATH}>All deals</Link>
      </p>
      <h1 className="mt-2 break-words text-3xl font-bold">{deal.title}</h1>
      <dl className="mt-4 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
        <Fact term="State">{deal.state}</Fact>
        <Party side="Creator" party={creator} />
        <Party side="Sponsor" party={sponsor} />
        <Fact term="Began as">
          {deal.origin === "application" ? "The creator's application to a brief" : "The sponsor's offer on a request"} (opened by the {deal.openedBy})
        </Fact>
        <Fact term="Waiting on">{deal.waitingOn}</Fact>
        {deal.accepted && <Fact term="Accepted">{deal.accepted}</Fact>}
        {deal.ended && <Fact term="Ended">{deal.ended}</Fact>}
        <Fact term="Opened">{deal.created}</Fact>
        <Fact term="Last activity">{deal.updated}</Fact>
        <Fact term="Opportunity id">
          <span className="break-all font-mono">{deal.opportunityId ?? "Removed"}</span>
        </Fact>
        <Fact term="Deal id">
          <span className="break-all font-mono">{deal.id}</span>
        </Fact>
        <Fact term="Pitch">{deal.pitch}</Fact>
        {deal.links.length > 0 && (
          <Fact term="Links">
            <ul>
              {deal.links.map((link) => (
                <li key={link} className="break-all">
                  {link}
                </li>
              ))}
            </ul>
          </Fact>
        )}
      </dl>

      <DataTable
        caption="Terms versions, oldest first"
        empty="No terms were written."
        rows={versions}
        rowKey={(v) => String(v.version)}
        columns={[
          { header: "Version", cell: (v) => v.version, numeric: true },
          { header: "Proposed by", cell: (v) => v.proposedBy },
          { header: "Price", cell: (v) => v.price, numeric: true },
          {
            header: "Deliverables",
            cell: (v) => (
              <ul>
                {v.deliverables.map((d, i) => (
                  <li key={i}>{d}</li>
                ))}
              </ul>
            ),
          },
          { header: "Usage rights", cell: (v) => v.rights },
          { header: "Exclusivity", cell: (v) => v.exclusivity },
          { header: "Approval", cell: (v) => v.approval },
          { header: "Disclosure", cell: (v) => v.disclosure },
          { header: "Message", cell: (v) => v.message || "—" },
          { header: "Proposed", cell: (v) => v.created },
        ]}
      />

      <DataTable
        caption="Activity, in order"
        empty="No move is recorded."
        rows={activity}
        rowKey={(a) => String(a.seq)}
        columns={[
          { header: "#", cell: (a) => a.seq, numeric: true },
          { header: "When", cell: (a) => a.at },
          { header: "Who", cell: (a) => <span className="break-all">{a.who}</span> },
          { header: "Action", cell: (a) => a.action },
          { header: "State", cell: (a) => a.move },
          { header: "Terms version", cell: (a) => a.version, numeric: true },
          { header: "Network", cell: (a) => <span className="break-all font-mono">{a.network}</span> },
        ]}
      />
    </>
  );
}
