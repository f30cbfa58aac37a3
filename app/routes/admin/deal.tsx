import type { ReactNode } from "react";
import { Link } from "react-router";
import { requireStaff } from "#server/domains/auth/staff-guard";
import { decideDispute, settleDispute } from "#server/domains/deals/disputes";
import { parseAmountInput } from "#isomorphic/amount-input";
import { fileSizeText } from "#isomorphic/deal-limits";
import { submissionKey } from "#server/domains/deals/room-files";
import type { DealFileView } from "#server/domains/deals/files";
import { notificationDepsOf } from "#server/domains/notifications/deps";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import { answerRefusal, requireForm } from "#page-kit/respond.server";
import { DisputeDecisionForm, type DisputeFormAnswer } from "#app/components/admin/DisputeDecisionForm";
import { dealRecordForStaff, type StaffDealParty } from "#server/features/back-office/deals";
import { formatMoney } from "#server/domains/payments/ledger/money";
import { refuse } from "#page-kit/respond.server";
import { pageMeta } from "#page-kit/meta";
import { DataTable } from "#app/components/admin/DataTable";
import { utcTime } from "#app/components/admin/format";
import type { Route } from "./+types/deal";

const DEALS_PATH = "/app/admin/deals";

/** A deal's files as staff open them: the name (and size) linking to the back office's copy. */
const fileLinks = (files: DealFileView[] | undefined) => (files ?? []).map((file) => ({ id: file.id, name: `${file.name} (${fileSizeText(file.size)})`, url: file.url }));

function FileLinks({ files }: { files: { id: string; name: string; url: string }[] }) {
  if (files.length === 0) return null;
  return (
    <ul className="mt-1 text-sm">
      {files.map((file) => (
        <li key={file.id}>
          <a href={file.url} className="break-all">
            {file.name}
          </a>
        </li>
      ))}
    </ul>
  );
}
const USAGE = { none: "None", organic: "Organic", paid: "Paid" } as const;

/** GET /app/admin/deals/:dealId: the deal's whole record, as a dispute's reviewer reads it, with the dispute's decision form. */
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
      currency: deal.funding?.currency ?? deal.versions.at(-1)?.currency ?? "usd",
      ended: deal.endedBy ? `${deal.state === "declined" ? "Declined" : "Withdrawn"} by ${who(deal.endedBy)}${deal.declineMessage ? `: “${deal.declineMessage}”` : ""}` : null,
    },
    creator: deal.creator,
    sponsor: deal.sponsor,
    funding: deal.funding ? { amount: deal.funding.amount, platformFee: deal.funding.platformFee, paid: formatMoney(deal.funding.amount, deal.funding.currency), fee: formatMoney(deal.funding.platformFee, deal.funding.currency), at: deal.funding.paidAt ? utcTime(deal.funding.paidAt) : "—" } : null,
    dispute: deal.dispute
      ? {
          openedBy: deal.dispute.openedBy === null ? "The sponsor's bank (a card dispute)" : `The ${deal.dispute.openedBy}, ${who(deal.dispute.openedByUid)}`,
          reason: deal.dispute.reason,
          opened: utcTime(deal.dispute.openedAt),
          decision: deal.dispute.decision
            ? {
                decision: deal.dispute.decision,
                sponsorRefund: formatMoney(deal.dispute.sponsorRefund ?? 0, deal.funding?.currency ?? "usd"),
                creatorShare: formatMoney(deal.dispute.creatorShare ?? 0, deal.funding?.currency ?? "usd"),
                by: deal.dispute.decidedByEmail ?? "—",
                reason: deal.dispute.decisionReason ?? "",
                at: utcTime(deal.dispute.decidedAt ?? deal.dispute.openedAt),
                settled: deal.dispute.settledAt ? utcTime(deal.dispute.settledAt) : null,
              }
            : null,
        }
      : null,
    messages: deal.messages.map((m) => ({ seq: m.seq, who: `${m.authorEmail ?? "Deleted account"} (${m.side})`, body: m.body, at: utcTime(m.at), files: fileLinks(deal.files.messages[m.seq]) })),
    brief: deal.files.brief ? { body: deal.files.brief.body, files: fileLinks(deal.files.brief.files) } : null,
    work: deal.work.map((d) => ({
      index: d.index,
      what: `${d.channel}: ${d.format}, due ${d.dueDate}${d.overdue ? " (overdue)" : ""}`,
      submissions: d.submissions.map((sub) => ({
        line: `Round ${sub.round}, ${sub.state.replace("_", " ")}: ${sub.liveUrl}${sub.reviewNote ? ` — “${sub.reviewNote}”` : ""}`,
        files: fileLinks(deal.files.submissions[submissionKey(d.index, sub.round)]),
      })),
    })),
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

/** POST: staff decide the dispute (release, refund or split, with a reason; audited), then the money moves. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const staff = await requireStaff(request, context);
  const form = await requireForm(request);
  const text = (name: string) => (typeof form.get(name) === "string" ? (form.get(name) as string) : "");
  const refund = text("sponsorRefund").trim();
  const input = { dealId: params.dealId, decision: text("decision"), reason: text("reason"), sponsorRefund: refund === "" ? null : (parseAmountInput(refund) ?? Number.NaN) };
  const deps = notificationDepsOf(context);
  const decided = await decideDispute(context.db, deps, staff.actor, input);
  if (decided.kind === "ERROR") return answerRefusal<DisputeFormAnswer>(decided, "fieldErrors" in decided ? { fieldErrors: decided.fieldErrors } : { message: decided.message });
  // Decided and audited: the money moves now, or on the deal-work job's next run if the provider is away.
  const settled = await settleDispute(context.db, context.payments, deps, params.dealId).catch((error: unknown) => {
    context.logger.warn({ err: error, dealId: params.dealId }, "decided dispute's money not moved yet; the deal-work job tries again");
    return "PENDING" as const;
  });
  const message = settled === "SETTLED" ? "Decided. The money has moved and both sides are told." : "Decided. Both sides are told; the money moves within minutes.";
  return redirectWithToast(request, context.sessionSecret, `${DEALS_PATH}/${encodeURIComponent(params.dealId)}`, { kind: "success", message });
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
  const { deal, creator, sponsor, versions, activity, funding, dispute, messages, work, brief } = loaderData;
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

      {dispute ? (
        <section aria-labelledby="dispute-heading" className="mt-6 rounded-lg border border-amber-300 bg-amber-50 p-4">
          <h2 id="dispute-heading" className="text-xl font-bold">
            Dispute
          </h2>
          <dl className="mt-2 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
            <Fact term="Opened by">{dispute.openedBy}</Fact>
            <Fact term="Opened (UTC)">{dispute.opened}</Fact>
            <Fact term="Why">{dispute.reason}</Fact>
            {dispute.decision ? (
              <>
                <Fact term="Decision">
                  {dispute.decision.decision}: {dispute.decision.creatorShare} to the creator, {dispute.decision.sponsorRefund} back to the sponsor
                </Fact>
                <Fact term="Decided by">
                  {dispute.decision.by}, {dispute.decision.at}
                </Fact>
                <Fact term="Reason">{dispute.decision.reason}</Fact>
                <Fact term="Money moved">{dispute.decision.settled ?? "Not yet: the deal-work job tries each minute"}</Fact>
              </>
            ) : null}
          </dl>
          {!dispute.decision && funding && deal.state === "disputed" ? <DisputeDecisionForm funding={funding} currency={deal.currency} /> : null}
        </section>
      ) : null}

      {funding ? (
        <p className="mt-4 text-sm">
          Paid {funding.paid} on {funding.at}; the platform's fee fixed then: {funding.fee}.
        </p>
      ) : null}

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

      {brief ? (
        <section aria-labelledby="brief-heading" className="mt-6">
          <h2 id="brief-heading" className="text-xl font-bold">
            The sponsor's brief
          </h2>
          <p className="mt-2 whitespace-pre-line break-words text-sm">{brief.body || "No text; assets only."}</p>
          <FileLinks files={brief.files} />
        </section>
      ) : null}

      {work.length > 0 ? (
        <DataTable
          caption="Deliverables of the accepted terms, and what was handed in"
          empty="No deliverable."
          rows={work}
          rowKey={(d) => String(d.index)}
          columns={[
            { header: "Deliverable", cell: (d) => d.what },
            {
              header: "Handed in",
              cell: (d) =>
                d.submissions.length === 0 ? (
                  "Nothing yet"
                ) : (
                  <ul>
                    {d.submissions.map((sub) => (
                      <li key={sub.line} className="break-all">
                        {sub.line}
                        <FileLinks files={sub.files} />
                      </li>
                    ))}
                  </ul>
                ),
            },
          ]}
        />
      ) : null}

      <DataTable
        caption="Thread, oldest first"
        empty="No message was written."
        rows={messages}
        rowKey={(m) => String(m.seq)}
        columns={[
          { header: "#", cell: (m) => m.seq, numeric: true },
          { header: "When", cell: (m) => m.at },
          { header: "Who", cell: (m) => <span className="break-all">{m.who}</span> },
          {
            header: "Message",
            cell: (m) => (
              <>
                <span className="whitespace-pre-line break-words">{m.body}</span>
                <FileLinks files={m.files} />
              </>
            ),
          },
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
