import type { ReactNode } from "react";
import { Form, Link, useActionData, useNavigation } from "react-router";
import { requireStaff } from "#server/domains/auth/staff-guard";
import { paymentRecord } from "#server/domains/payments/records/payment-record";
import { REFUND_REASON_MAX } from "#server/domains/payments/refunds/staff-refund";
import { refundPaymentAsStaff } from "#server/features/operations/payments/refund";
import { runForPage, staffCaller } from "#app/lib/operation-door.server";
import { formatMoney } from "#server/domains/payments/ledger/money";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import { answerRefusal, refuse, requireForm } from "#page-kit/respond.server";
import { pageMeta } from "#page-kit/meta";
import { DataTable } from "#app/components/admin/DataTable";
import { PAYMENTS_PATH } from "#app/components/admin/PaymentsTabs";
import { dateTimeFormat } from "#isomorphic/format";
import { PAYMENT_KIND_LABELS } from "#isomorphic/supporters";
import type { Route } from "./+types/payment";

/** GET /app/admin/payments/:sessionId: one payment, its ledger rows, provider events and refund. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const found = await paymentRecord(context.db, params.sessionId);
  if (found.kind === "ERROR") refuse("not-found");
  const { session, creator, page, ledger, events, refund } = found.record;
  const money = (minor: number) => formatMoney(minor, session.currency);
  const refundable = session.status === "completed" && (!refund || refund.status === "failed");
  return {
    session: { ...session, amountText: money(session.amount), platformFeeText: money(session.platformFee) },
    creator,
    page,
    ledger: ledger.map((e) => ({ ...e, gross: formatMoney(e.gross, e.currency), providerFee: formatMoney(e.providerFee, e.currency), platformFee: formatMoney(e.platformFee, e.currency), net: formatMoney(e.net, e.currency) })),
    events,
    refund,
    refundable,
    reasonMax: REFUND_REASON_MAX,
  };
}

type RefundAnswer = { fieldErrors?: { reason?: string }; message?: string };

/** POST: staff refund the payment whole, with a reason (written to the audit log). */
export async function action({ request, context, params }: Route.ActionArgs) {
  const staff = await requireStaff(request, context);
  const form = await requireForm(request);
  const reason = form.get("reason");
  const input = { sponsorSessionId: params.sessionId, reason: typeof reason === "string" ? reason : "" };
  const result = await runForPage(refundPaymentAsStaff, { caller: staffCaller(staff), input, context });
  if (result.kind === "ERROR") {
    return answerRefusal<RefundAnswer>(result, "fieldErrors" in result ? { fieldErrors: result.fieldErrors } : { message: result.message });
  }
  const message = result.alreadyRequested ? "This payment's refund was already asked for." : "Refund requested. The payment shows as refunded once the payment provider confirms it.";
  return redirectWithToast(request, context.sessionSecret, `${PAYMENTS_PATH}/${encodeURIComponent(params.sessionId)}`, { kind: "success", message });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Payment", noindex: true });

const when = (date: Date | string) => dateTimeFormat("en-US", "mediumDateTimeUtc").format(new Date(date));

/** One line of a payment's facts; an id is set in a fixed-width font and may break anywhere. */
function Fact({ term, id = false, children }: { term: string; id?: boolean; children: ReactNode }) {
  return (
    <>
      <dt className="font-semibold">{term}</dt>
      <dd className={id ? "break-all font-mono" : undefined}>{children}</dd>
    </>
  );
}

const ISSUED_BY = {
  creator: "the creator",
  staff: "staff",
  "provider-dashboard": "the payment provider's dashboard",
} as const;

export default function Payment({ loaderData }: Route.ComponentProps) {
  const { session, creator, page, ledger, events, refund, refundable, reasonMax } = loaderData;
  const answer = useActionData<typeof action>() as RefundAnswer | undefined;
  const busy = useNavigation().state === "submitting";
  const reasonError = answer?.fieldErrors?.reason;
  return (
    <>
      <p className="text-sm">
        <Link to={PAYMENTS_PATH}>All payments</Link>
      </p>
      <h1 className="mt-2 text-3xl font-bold">Payment {session.amountText}</h1>
      <dl className="mt-4 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
        <Fact term="Status">{session.status}</Fact>
        <Fact term="Created (UTC)">{when(session.created)}</Fact>
        <Fact term="Kind">{PAYMENT_KIND_LABELS[session.kind]}</Fact>
        <Fact term="Platform fee asked">{session.platformFeeText}</Fact>
        <Fact term="Creator">{creator ? `${creator.name} <${creator.email}>` : "Account deleted"}</Fact>
        <Fact term="Page">{page ? `${page.name} (/${page.ending})` : "None"}</Fact>
        <Fact term="Sponsor">{session.sponsorEmail ?? "Not provided"}</Fact>
        <Fact term="Session id" id>
          {session.id}
        </Fact>
        <Fact term="Checkout id" id>
          {session.providerCheckoutId ?? "—"}
        </Fact>
        <Fact term="Payment intent id" id>
          {session.paymentIntentId ?? "—"}
        </Fact>
      </dl>

      <DataTable
        caption="Ledger rows"
        empty="No money has moved on this payment."
        rows={ledger}
        rowKey={(e) => e.id}
        columns={[
          { header: "When (UTC)", cell: (e) => when(e.created) },
          { header: "Kind", cell: (e) => e.kind },
          { header: "Gross", cell: (e) => e.gross, numeric: true },
          { header: "Provider fee", cell: (e) => e.providerFee, numeric: true },
          { header: "Platform fee", cell: (e) => e.platformFee, numeric: true },
          { header: "Net to creator", cell: (e) => e.net, numeric: true },
          { header: "Reference", cell: (e) => <span className="break-all font-mono">{e.providerReference}</span> },
        ]}
      />

      <DataTable
        caption="Provider events"
        empty="No provider event names this payment."
        rows={events}
        rowKey={(e) => e.eventId}
        columns={[
          { header: "Type", cell: (e) => e.type },
          { header: "Received (UTC)", cell: (e) => when(e.receivedAt) },
          { header: "Processed (UTC)", cell: (e) => (e.handledAt ? when(e.handledAt) : "Not yet") },
          { header: "Event id", cell: (e) => <span className="break-all font-mono">{e.eventId}</span> },
        ]}
      />

      <section aria-labelledby="refund-heading" className="mt-8">
        <h2 id="refund-heading" className="text-xl font-bold">
          Refund
        </h2>
        {refund ? (
          <dl className="mt-2 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
            <Fact term="Refund status">{refund.status}</Fact>
            <Fact term="Issued by">
              {ISSUED_BY[refund.issuedBy.kind]}
              {"email" in refund.issuedBy && refund.issuedBy.email ? ` (${refund.issuedBy.email})` : ""}
            </Fact>
            {refund.issuedBy.kind === "staff" && <Fact term="Reason">{refund.issuedBy.reason ?? "—"}</Fact>}
            <Fact term="Asked (UTC)">{when(refund.created)}</Fact>
            <Fact term="Refund id" id>
              {refund.providerRefundId ?? "—"}
            </Fact>
          </dl>
        ) : (
          <p className="mt-2 text-sm text-muted">No refund has been asked for.</p>
        )}
        {refundable ? (
          <Form method="post" className="mt-4 max-w-xl">
            <label htmlFor="reason" className="block text-sm font-semibold">
              Reason for the refund
            </label>
            <textarea
              id="reason"
              name="reason"
              required
              maxLength={reasonMax}
              rows={3}
              aria-invalid={reasonError ? true : undefined}
              aria-describedby={reasonError ? "reason-error" : "reason-hint"}
              className="mt-1 block w-full rounded-md border border-black/25 px-2 py-1.5"
            />
            {reasonError ? (
              <p id="reason-error" className="mt-1 text-sm text-red-800">
                {reasonError}
              </p>
            ) : (
              <p id="reason-hint" className="mt-1 text-sm text-muted">
                The whole payment goes back to the sponsor; the creator is told. Your reason is kept in the audit log.
              </p>
            )}
            {answer?.message && (
              <p role="alert" className="mt-2 text-sm text-red-800">
                {answer.message}
              </p>
            )}
            <button type="submit" disabled={busy} className="mt-3 rounded-full border border-red-700 bg-white px-4 py-2 text-sm font-semibold text-red-700 hover:bg-red-50">
              Refund
            </button>
          </Form>
        ) : (
          !refund && <p className="mt-2 text-sm text-muted">Only a completed payment can be refunded; this one is {session.status}.</p>
        )}
      </section>
    </>
  );
}
