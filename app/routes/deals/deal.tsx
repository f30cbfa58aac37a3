import { Form, Link, useNavigation } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { bioPageAddress } from "#server/domains/bio/qr";
import type { DealTermsVersion } from "#server/domains/deals/read";
import { readDeal } from "#server/features/operations/deals/read";
import { pageCaller, runForPage } from "#app/lib/operation-door.server";
import type { TermsFieldErrors, TermsFormFields } from "#server/domains/deals/terms-form";
import { TermsSummary } from "#app/components/deals/TermsSummary";
import { TermsFields } from "#app/components/deals/TermsFields";
import { DealStateBadge } from "#app/components/deals/DealStateBadge";
import { FormNotice, primaryButton, secondaryButton, TextArea } from "#page-kit/forms";
import { pageMeta } from "#page-kit/meta";
import { refuse } from "#page-kit/respond.server";
import { formatMoney } from "#isomorphic/format";
import { LocalDateTime } from "#app/components/opportunities/LocalDateTime";
import { localeFrom } from "#isomorphic/format";
import type { Route } from "./+types/deal";
import { dealAction } from "./deal-action.server";
import type { DealActionData } from "./deal-action-data";
import { readDealThread } from "#server/domains/deals/thread";
import { DealThread } from "#app/components/deals/DealThread";
import { DealWork } from "#app/components/deals/DealWork";
import { CancelDeal } from "#app/components/deals/CancelDeal";
import { DealDispute } from "#app/components/deals/DealDispute";
import { DealBrief } from "#app/components/deals/DealBrief";
import { briefIsEditable } from "#isomorphic/deal-limits";
import { readDealRoomFiles } from "#server/domains/deals/room-files";
import { DealPaperwork } from "#app/components/deals/DealPaperwork";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const read = await runForPage(readDeal, { caller: pageCaller(user), input: { dealId: params.dealId }, context, notFound: "answer" });
  if (read.kind === "ERROR") refuse("not-found", read.message);
  const { deal, split } = read;
  // From the place the deal's read gave, so only a party reads (and so marks read) the thread.
  const thread = await readDealThread(context.db, read.thread);
  const room = await readDealRoomFiles(context.db, read.thread);
  return {
    deal,
    room,
    split,
    thread,
    feePercent: context.config.PLATFORM_FEE_PERCENT,
    bioPage: deal.bioPageEnding ? bioPageAddress(context.config.BIO_ORIGIN, deal.bioPageEnding) : null,
    locale: localeFrom(request.headers.get("Accept-Language")),
    // Back from the provider's checkout: the payment may be a moment behind the sponsor.
    backFromCheckout: new URL(request.url).searchParams.get("paid") === "1",
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireVerifiedUser(request, context);
  return dealAction(request, context, user, params.dealId);
}

export const meta: Route.MetaFunction = (args) => (args.data ? pageMeta(args, { title: `Deal: ${args.data.deal.title}` }) : []);

/** The terms as the counter form starts: the version on the table. */
function formOf(terms: DealTermsVersion): TermsFormFields {
  return {
    price: String(terms.price / 100),
    usageRights: terms.usageRights,
    usageDays: String(terms.usageDays),
    exclusivityDays: String(terms.exclusivityDays),
    autoApproveDays: String(terms.autoApproveDays),
    message: "",
    disclosureRequired: terms.disclosureRequired,
    sponsorApproves: terms.sponsorApproves,
    deliverableChannel: terms.deliverables.map((d) => d.channel),
    deliverableFormat: terms.deliverables.map((d) => d.format),
    deliverableDue: terms.deliverables.map((d) => d.dueDate),
  };
}

export default function DealPage({ loaderData, actionData }: Route.ComponentProps) {
  const { deal, room, split, thread, feePercent, bioPage, locale, backFromCheckout } = loaderData;
  const data = actionData as DealActionData | undefined;
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const latest = deal.versions.at(-1)!;
  const before = deal.versions.at(-2);
  const other = deal.side === "creator" ? "sponsor" : "creator";
  const can = new Set(deal.actions);
  const countering = data?.intent === "counter";
  const errors: TermsFieldErrors = data?.errors ?? {};
  return (
    <article className="mx-auto max-w-4xl px-4 py-10 sm:py-14">
      <Link to="/app/deals" className="text-sm font-semibold">
        ← My deals
      </Link>
      <div className="mt-4 flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-3xl font-bold leading-tight">{deal.title}</h1>
          <p className="mt-1 text-muted">
            {deal.origin === "application" ? `${deal.names.creator} applied to ${deal.names.sponsor}'s brief` : `${deal.names.sponsor} made ${deal.names.creator} an offer`}
            {deal.opportunityId ? (
              <>
                {" · "}
                <Link to={`/app/opportunities/${deal.opportunityId}`}>See the opportunity</Link>
              </>
            ) : null}
          </p>
        </div>
        <DealStateBadge state={deal.state} waitingOnYou={deal.waitingOnYou} />
      </div>

      {data?.message ? (
        <div className="mt-6">
          <FormNotice>
            {data.message}
            {data.reason === "PAYOUTS_NEEDED" && deal.side === "creator" ? (
              <>
                {" "}
                <Link to="/app/payments/setup">Set up payouts</Link>
              </>
            ) : null}
          </FormNotice>
        </div>
      ) : null}

      <p className="mt-6 rounded-lg border border-ink/10 p-4" role="status">
        {statusLine(deal, other, locale)}
      </p>

      {backFromCheckout && deal.state === "agreed" ? (
        <p className="mt-3 rounded-lg bg-secondary/40 p-4" role="status">
          Thank you. Your payment is being confirmed: the deal is booked as soon as it arrives, and you both get a notification. Refresh this page in a moment.
        </p>
      ) : null}

      {deal.state === "agreed" && deal.side === "sponsor" ? <PayToBook price={split} currency={latest.currency} creatorName={deal.names.creator} checkoutOpen={deal.funding?.state === "open"} busy={busy("fund")} /> : null}

      <section aria-labelledby="pitch-heading" className="mt-8">
        <h2 id="pitch-heading" className="text-xl font-bold">
          {deal.origin === "application" ? `${deal.names.creator}'s pitch` : `${deal.names.sponsor}'s offer`}
        </h2>
        <p className="mt-3 whitespace-pre-line">{deal.pitch}</p>
        {bioPage || deal.links.length ? (
          <ul className="mt-3 space-y-1">
            {bioPage ? (
              <li>
                Bio page: <a href={bioPage}>{bioPage.replace(/^https?:\/\//, "")}</a>
              </li>
            ) : null}
            {deal.links.map((link) => (
              <li key={link}>
                <a href={link} rel="noopener noreferrer nofollow ugc" target="_blank">
                  {link}
                </a>
              </li>
            ))}
          </ul>
        ) : null}
      </section>

      <section aria-labelledby="terms-heading" className="mt-8 rounded-2xl border border-primary/15 p-6">
        <h2 id="terms-heading" className="text-xl font-bold">
          {deal.state === "agreed" || deal.state === "funded" || deal.state === "completed" ? "Agreed terms" : "Terms on the table"}
        </h2>
        <p className="mt-1 text-sm text-muted">
          Version {latest.version}, proposed by {latest.proposedBy === deal.side ? "you" : deal.names[latest.proposedBy]} on{" "}
          <LocalDateTime iso={latest.createdAt} serverLocale={locale} />
          {before ? " · changes from the version before are marked" : ""}
        </p>
        {latest.message ? <blockquote className="mt-3 border-l-4 border-primary/30 pl-3 whitespace-pre-line">{latest.message}</blockquote> : null}
        <div className="mt-4">
          <TermsSummary terms={latest} before={before} split={split} />
        </div>

        {can.size > 0 ? (
          <div className="mt-6 flex flex-wrap gap-3">
            {can.has("accept") ? (
              <Form method="post">
                <input type="hidden" name="version" value={latest.version} />
                <button type="submit" name="intent" value="accept" className={primaryButton} disabled={busy("accept")}>
                  {busy("accept") ? "Accepting..." : `Accept ${formatMoney(latest.price, latest.currency)}`}
                </button>
              </Form>
            ) : null}
            {can.has("shortlist") ? (
              <Form method="post">
                <input type="hidden" name="shortlisted" value={deal.shortlisted ? "" : "on"} />
                <button type="submit" name="intent" value="shortlist" className={secondaryButton} aria-pressed={deal.shortlisted}>
                  {deal.shortlisted ? "Shortlisted ✓" : "Shortlist"}
                </button>
              </Form>
            ) : null}
            {can.has("withdraw") ? (
              <Form method="post">
                <button type="submit" name="intent" value="withdraw" className={secondaryButton} disabled={busy("withdraw")}>
                  {deal.state === "agreed" ? "Call the deal off" : "Withdraw"}
                </button>
              </Form>
            ) : null}
          </div>
        ) : null}

        {can.has("counter") ? (
          <details className="mt-6 rounded-lg border border-ink/10 p-4" open={countering}>
            <summary className="cursor-pointer font-semibold">Answer with new terms</summary>
            <Form method="post" noValidate className="mt-4 space-y-6">
              <TermsFields values={countering && data?.terms ? data.terms : formOf(latest)} errors={countering ? errors : {}} feePercent={feePercent} messageLabel={`A message to ${deal.names[other]} (optional)`} />
              <button type="submit" name="intent" value="counter" className={primaryButton} disabled={busy("counter")}>
                {busy("counter") ? "Sending..." : "Send new terms"}
              </button>
            </Form>
          </details>
        ) : null}
        {can.has("decline") ? (
          <details className="mt-3 rounded-lg border border-ink/10 p-4" open={data?.intent === "decline"}>
            <summary className="cursor-pointer font-semibold">Decline</summary>
            <Form method="post" className="mt-4 space-y-4">
              <TextArea label={`Why, in a word to ${deal.names[other]} (optional)`} name="message" id="decline-message" rows={3} error={data?.intent === "decline" ? errors.message : undefined} />
              <button type="submit" name="intent" value="decline" className={secondaryButton} disabled={busy("decline")}>
                Decline this {deal.origin === "application" ? "application" : "offer"}
              </button>
            </Form>
          </details>
        ) : null}
      </section>

      <DealBrief brief={room.brief} side={deal.side} names={deal.names} locale={locale} editable={briefIsEditable(deal.state)} refused={data?.intent === "brief" ? { brief: data.brief ?? "", error: data.errors?.body, files: data.files } : null} busy={busy("brief")} />

      {deal.work ? <DealWork work={deal.work} side={deal.side} names={deal.names} locale={locale} open={deal.state === "funded"} refused={data?.work ?? null} busy={busy} screenshots={room.submissions} /> : null}

      {deal.state === "funded" ? (
        <CancelDeal
          side={deal.side}
          names={deal.names}
          held={formatMoney(deal.funding?.amount ?? latest.price, deal.funding?.currency ?? latest.currency)}
          actions={can}
          cancelRequest={deal.cancelRequest}
          late={(deal.work ?? []).some((d) => d.overdue)}
          error={data?.intent === "request_cancel" ? data.errors?.message : undefined}
          busy={busy}
        />
      ) : null}

      <DealDispute
        side={deal.side}
        names={deal.names}
        held={formatMoney(deal.funding?.amount ?? latest.price, deal.funding?.currency ?? latest.currency)}
        currency={deal.funding?.currency ?? latest.currency}
        dispute={deal.dispute}
        canOpen={can.has("dispute") && !(deal.work ?? []).every((d) => d.submissions.at(-1)?.state === "approved")}
        error={data?.intent === "dispute" ? data.errors?.message : undefined}
        busy={busy("dispute")}
        locale={locale}
      />

      {deal.invoiceNumber ? <DealPaperwork dealId={deal.id} side={deal.side} invoiceNumber={deal.invoiceNumber} /> : null}

      <DealThread
        messages={thread.messages}
        files={room.messages}
        firstUnread={thread.firstUnread}
        side={deal.side}
        names={deal.names}
        locale={locale}
        refused={data?.intent === "message" ? { body: data.body ?? "", error: data.errors?.body, files: data.files } : null}
        busy={busy("message")}
      />

      {deal.versions.length > 1 ? (
        <section aria-labelledby="history-heading" className="mt-8">
          <h2 id="history-heading" className="text-xl font-bold">
            Earlier versions
          </h2>
          <ol className="mt-3 space-y-3">
            {deal.versions
              .slice(0, -1)
              .reverse()
              .map((version) => (
                <li key={version.version}>
                  <details className="rounded-lg border border-ink/10 p-4">
                    <summary className="cursor-pointer">
                      Version {version.version}: {formatMoney(version.price, version.currency)}, proposed by {version.proposedBy === deal.side ? "you" : deal.names[version.proposedBy]}
                    </summary>
                    {version.message ? <p className="mt-2 whitespace-pre-line text-muted">{version.message}</p> : null}
                    <div className="mt-2">
                      <TermsSummary terms={version} before={deal.versions[version.version - 2]} />
                    </div>
                  </details>
                </li>
              ))}
          </ol>
        </section>
      ) : null}
    </article>
  );
}

type Loaded = Route.ComponentProps["loaderData"];

/** One sentence on where the deal stands and what happens next, for the reader's side. */
function statusLine(deal: Loaded["deal"], other: "creator" | "sponsor", locale: string) {
  const them = deal.names[other];
  switch (deal.state) {
    case "proposed":
      return deal.waitingOnYou ? `Your answer: accept these terms, answer with new ones, or decline.` : `Waiting on ${them} to answer these terms.`;
    case "agreed":
      return (
        <>
          Terms agreed: version {deal.accepted?.version}, accepted by {deal.accepted?.byYou ? "you" : them} on{" "}
          <LocalDateTime iso={deal.accepted?.at ?? deal.createdAt} serverLocale={locale} />. Next the sponsor pays to book the deal; the money is held until the work is approved.
        </>
      );
    case "funded": {
      const paid = deal.funding ? formatMoney(deal.funding.amount, deal.funding.currency) : "the agreed price";
      return (
        <>
          Booked: {deal.side === "sponsor" ? "you" : them} paid {paid}
          {deal.funding?.paidAt ? (
            <>
              {" "}
              on <LocalDateTime iso={deal.funding.paidAt} serverLocale={locale} />
            </>
          ) : null}
          . The platform holds the money and pays the creator when the work is approved.
        </>
      );
    }
    case "disputed":
      return "Disputed: the money stays held until our staff decide. They read the thread, the terms and the work.";
    case "completed":
      if (deal.dispute?.decision) return `Settled by our staff after a dispute: ${deal.side === "creator" ? "you were" : `${deal.names.creator} was`} paid ${formatMoney(deal.dispute.decision.creatorShare, deal.versions.at(-1)!.currency)}.`;
      return (
        <>
          Complete: every deliverable is approved, and {deal.side === "creator" ? "you were" : `${deal.names.creator} was`} paid{" "}
          {deal.release ? formatMoney(deal.release.amount, deal.release.currency) : "their share"}
          {deal.release ? (
            <>
              {" "}
              on <LocalDateTime iso={deal.release.at} serverLocale={locale} />
            </>
          ) : null}
          .
        </>
      );
    case "cancelled": {
      if (deal.dispute?.decision) return `Settled by our staff after a dispute: ${formatMoney(deal.dispute.decision.sponsorRefund, deal.versions.at(-1)!.currency)} went back to the sponsor.`;
      const back = deal.refunded ? formatMoney(deal.refunded, deal.versions.at(-1)!.currency) : null;
      return `${deal.endedByYou ? "You cancelled" : `${them} cancelled`} this booked deal. ${back ? `${back} went back to the sponsor.` : "The sponsor's money is being refunded."}`;
    }
    case "declined":
      return `${deal.endedByYou ? "You declined" : `${them} declined`}${deal.declineMessage ? `: “${deal.declineMessage}”` : "."}`;
    case "withdrawn":
      return `${deal.endedByYou ? "You" : them} withdrew from this deal before any money moved.`;
  }
}

/**
 * The sponsor's "Pay to book": the agreed price by card on the provider's page, held by the
 * platform until the work is approved. Says who gets what before anyone pays.
 */
function PayToBook({ price, currency, creatorName, checkoutOpen, busy }: { price: Loaded["split"]; currency: string; creatorName: string; checkoutOpen: boolean; busy: boolean }) {
  const total = formatMoney(price.price, currency);
  return (
    <section aria-labelledby="pay-heading" className="mt-6 rounded-2xl border-2 border-primary/30 p-6">
      <h2 id="pay-heading" className="text-xl font-bold">
        Pay to book
      </h2>
      <p className="mt-2">
        Pay {total} by card to book this deal. The platform holds the money, not {creatorName}: they are paid {formatMoney(price.creatorReceives, currency)} when you approve the work
        {price.platformFee > 0 ? `, and the platform keeps ${formatMoney(price.platformFee, currency)}` : ""}. If the deal is cancelled before then, the money comes back to you.
      </p>
      <Form method="post" className="mt-4">
        <button type="submit" name="intent" value="fund" className={primaryButton} disabled={busy}>
          {busy ? "Opening the checkout..." : checkoutOpen ? `Continue to pay ${total}` : `Pay ${total} to book`}
        </button>
      </Form>
      <p className="mt-2 text-sm text-muted">You pay on the payment provider's secure page. Nothing is charged until you confirm there.</p>
    </section>
  );
}
