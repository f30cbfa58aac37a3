import type { ReactNode } from "react";
import { Link } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { formatMoney } from "#server/domains/payments/ledger/money";
import { paymentFigures } from "#server/domains/payments/records/payment-figures";
import { readPaymentInfo } from "#server/features/operations/payments/payment-info";
import { pageCaller, runForPage } from "#app/lib/operation-door.server";
import { LocalDateTime } from "#app/components/opportunities/LocalDateTime";
import { StatusBadge } from "#app/components/sponsor-payments/StatusBadge";
import { PrivateMark } from "#app/components/sponsor-payments/PrivateMark";
import { NO_NAME_GIVEN, PAYMENT_KIND_LABELS, supporterHref } from "#isomorphic/supporters";
import { localeFrom } from "#isomorphic/format";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/payment-info";
import { ACTIVITY_LABELS, PAYMENTS_PATH } from "#app/components/sponsor-payments/paths";
import { activityView, disputeView } from "./view.server";

/**
 * SPEC §2.5 "Payment info page" (§7.1 sponsorPaymentInfo): Transaction,
 * Details, Gross Payment, Net Payment, Fees, all from the ledger
 * (docs/decisions/0021): net is the creator's share, gross − the platform's
 * fee; the card processor's fee is paid by the platform and shown beside it.
 * Another person's payment, like an unknown one, is a 404.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const found = await runForPage(readPaymentInfo, { caller: pageCaller(user), input: { sponsorSessionId: params.sessionId }, context });
  const { session, entries } = found.info;
  const money = (n: number) => formatMoney(n, session.currency);
  const { gross: paid, returned, net, platformFee, providerFee } = paymentFigures(found.info);
  return {
    session: {
      id: session.id,
      kind: session.kind,
      status: session.status,
      refundPending: session.refundPending,
      created: session.created.toISOString(),
      sponsorEmail: session.sponsorEmail,
      supporterName: session.supporterName,
      private: session.private,
      message: session.message,
      amount: money(session.amount),
      paymentReference: session.paymentIntentId,
    },
    paid: paid > 0,
    gross: money(paid),
    returned: returned > 0 ? money(-returned) : null,
    net: money(net),
    platformFee: money(platformFee),
    providerFee: money(providerFee),
    entries: entries.map(activityView),
    dispute: session.dispute ? disputeView(session.dispute, context.config.SUPPORT_EMAIL) : null,
    appName: context.config.APP_NAME,
    providerName: context.payments.displayName,
    locale: localeFrom(request.headers.get("Accept-Language")),
  };
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Payment info", noindex: true });

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-2xl border border-ink/15 p-5">
      <h2 id={id} className="text-lg font-bold">
        {title}
      </h2>
      <div className="mt-2">{children}</div>
    </section>
  );
}

const Row = ({ term, children }: { term: string; children: ReactNode }) => (
  <div className="flex flex-wrap justify-between gap-x-4">
    <dt className="text-muted">{term}</dt>
    <dd className="min-w-0 break-all text-right font-medium">{children}</dd>
  </div>
);

export default function PaymentInfo({ loaderData }: Route.ComponentProps) {
  const { session, paid, gross, returned, net, platformFee, providerFee, entries, dispute, appName, providerName, locale } = loaderData;
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
      <p className="text-sm">
        <Link to={PAYMENTS_PATH}>My Sponsorships</Link> · <Link to={supporterHref(session.id)}>Supporters</Link>
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <h1 className="text-3xl font-bold">Payment info</h1>
        <StatusBadge status={session.status} refundPending={session.refundPending} />
      </div>

      <div className="mt-8 grid grid-cols-1 gap-4">
        {dispute ? (
          <Section id="dispute" title="Dispute">
            <p className={`text-sm font-semibold ${dispute.open ? "text-red-800" : ""}`}>{dispute.text}</p>
            {dispute.guidance ? <p className="mt-2 text-sm">{dispute.guidance}</p> : null}
          </Section>
        ) : null}
        <Section id="transaction" title="Transaction">
          <dl className="space-y-1 text-sm">
            <Row term="Reference">{session.id}</Row>
            <Row term="Date">
              <LocalDateTime iso={session.created} serverLocale={locale} />
            </Row>
            <Row term="Type">{PAYMENT_KIND_LABELS[session.kind]}</Row>
            <Row term="Amount">{session.amount}</Row>
            {session.paymentReference ? <Row term={`${providerName} payment`}>{session.paymentReference}</Row> : null}
          </dl>
        </Section>

        <Section id="details" title="Details">
          <dl className="space-y-1 text-sm">
            <Row term="Supporter">
              {session.supporterName ?? NO_NAME_GIVEN}
              {session.private ? <PrivateMark /> : null}
            </Row>
            <Row term="Sponsor email">{session.sponsorEmail ?? "Not provided"}</Row>
            <div>
              <dt className="text-muted">Message</dt>
              <dd className="mt-1 whitespace-pre-line break-words">{session.message.trim() ? session.message : "No message provided"}</dd>
            </div>
          </dl>
        </Section>

        {paid ? (
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <Section id="gross" title="Gross Payment">
              <p className="text-2xl font-bold">{gross}</p>
              <p className="text-sm text-muted">What the sponsor paid.</p>
              {returned ? <p className="mt-1 text-sm">Returned to the sponsor: <span className="font-semibold">{returned}</span></p> : null}
            </Section>
            <Section id="net" title="Net Payment">
              <p className="text-2xl font-bold">{net}</p>
              <p className="text-sm text-muted">Your share, paid to your payout account{returned ? ", after what was returned" : ""}.</p>
            </Section>
          </div>
        ) : (
          <Section id="gross" title="Gross Payment">
            <p className="text-sm">Nothing has been paid for this checkout.</p>
          </Section>
        )}

        {paid ? (
          <Section id="fees" title="Fees">
            <dl className="space-y-1 text-sm">
              <Row term={`${appName} fee (taken from the payment)`}>{platformFee}</Row>
              <Row term={`Card processing fee (${providerName}, paid by ${appName})`}>{providerFee}</Row>
            </dl>
            <p className="mt-2 text-sm text-muted">
              Net Payment is the gross payment less the {appName} fee. The card processing fee is charged to {appName}, not to you; on a refund
              the card processor keeps it.
            </p>
          </Section>
        ) : null}

        <Section id="ledger" title="Movements">
          {entries.length === 0 ? (
            <p className="text-sm text-muted">No money has moved.</p>
          ) : (
            <ul className="divide-y divide-ink/10 text-sm" aria-label="Movements of this payment">
              {entries.map((e, index) => (
                <li key={`${e.kind}-${index}`} className="flex flex-wrap justify-between gap-x-4 py-2">
                  <span>
                    <span className="font-semibold">{ACTIVITY_LABELS[e.kind]}</span> · <LocalDateTime iso={e.created} serverLocale={locale} />
                  </span>
                  <span>
                    {e.gross} <span className="text-muted">(net {e.net})</span>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Section>
      </div>
    </div>
  );
}
