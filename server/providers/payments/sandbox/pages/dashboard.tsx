import { data, Form, useNavigation } from "react-router";
import { readSandboxDashboard } from "#server/providers/payments/sandbox/dashboard";
import { applyDashboardDisputeAction, type DashboardDisputeIntent } from "#server/providers/payments/sandbox/disputes";
import { readForm } from "#page-kit/form.server";
import { FormNotice, secondaryButton } from "#page-kit/forms";
import { checkLoginLink } from "#server/providers/payments/sandbox/links";
import { formatAmount, SandboxPage } from "#server/providers/payments/sandbox/components/TestModeBanner";
import { dateTimeFormat } from "#isomorphic/format";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/dashboard";
import { requireSandboxObject } from "./sandbox.server";
import { answerRefusal, refuse } from "#page-kit/respond.server";

/** Opened through a login link (createLoginLink): signed, for one account, for 15 minutes. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const sandbox = requireSandboxObject(context, "acct", params.accountId);
  const check = checkLoginLink(sandbox.linkKey, params.accountId, new URL(request.url).searchParams, sandbox.now());
  if (check === "invalid") refuse("not-found");
  const appName = context.config.APP_NAME;
  if (check === "expired") return answerRefusal({ code: "gone" }, { expired: true as const, appName, dashboard: null });
  const dashboard = await readSandboxDashboard(context.db, params.accountId);
  if (!dashboard) refuse("not-found");
  const { account } = dashboard;
  return {
    expired: false as const,
    appName,
    dashboard: {
      name: account.legalName ?? account.email,
      bankLast4: account.bankLast4,
      payoutsEnabled: account.payoutsEnabled,
      balance: dashboard.balance,
      payments: dashboard.payments.map((p) => ({
        ...p,
        created: p.created.toISOString(),
        dispute: p.dispute ? { ...p.dispute, evidenceDueBy: p.dispute.evidenceDueBy.toISOString() } : null,
      })),
      refunds: dashboard.refunds.map((r) => ({ ...r, created: r.created.toISOString() })),
      transfers: dashboard.transfers.map((t) => ({ ...t, created: t.created.toISOString() })),
      runningMemberships: dashboard.runningMemberships,
    },
  };
}

type ActionData = { done: boolean; message: string };
const INTENTS: readonly string[] = ["dispute", "won", "lost"] satisfies DashboardDisputeIntent[];

const clockMessage = (r: { renewed: number; failed: number; ended: number }) =>
  r.renewed + r.failed + r.ended === 0
    ? "No membership runs here: nothing moved on."
    : `The test clock moved every membership on by one period: ${r.renewed} renewed, ${r.failed} failed to renew, ${r.ended} ended.`;

/**
 * The dashboard's test actions (the sandbox only): play the sponsor's bank, opening a dispute on a
 * payment or deciding it; or move the test clock on for the memberships paying this account.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const sandbox = requireSandboxObject(context, "acct", params.accountId);
  const check = checkLoginLink(sandbox.linkKey, params.accountId, new URL(request.url).searchParams, sandbox.now());
  if (check === "invalid") refuse("not-found");
  if (check === "expired") return answerRefusal<ActionData>({ code: "gone" }, { done: false, message: "This dashboard link has expired. Open it again from your payments page." });
  const read = await readForm(request);
  if (read.kind === "ERROR") return answerRefusal<ActionData>(read, { done: false, message: read.message });
  const intent = String(read.form.get("intent") ?? "");
  if (intent === "advance-memberships") {
    // The provider's call kicks the outbox for the events it stored.
    return data<ActionData>({ done: true, message: clockMessage(await sandbox.advanceMemberships({ accountId: params.accountId })) });
  }
  if (!INTENTS.includes(intent)) return answerRefusal<ActionData>({ code: "invalid-argument" }, { done: false, message: "Unknown action." });
  const result = await applyDashboardDisputeAction(
    context.db,
    { accountId: params.accountId, paymentIntentId: String(read.form.get("payment") ?? ""), intent: intent as DashboardDisputeIntent },
    sandbox.now(),
  );
  if (result.kind === "ERROR") return answerRefusal<ActionData>(result, { done: false, message: result.message });
  sandbox.outbox.kick();
  return data<ActionData>({ done: true, message: result.message });
}

/** A person's checkout, account or balance: never kept by a shared cache or on disk. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Payouts dashboard (sandbox)", noindex: true });

const when = (iso: string) => dateTimeFormat("en-US", "mediumDateTimeUtc").format(new Date(iso));

const DISPUTE_LABELS: Record<string, string> = { needs_response: "Disputed", won: "Dispute won", lost: "Dispute lost" };

export default function SandboxDashboard({ loaderData, actionData }: Route.ComponentProps) {
  const { appName } = loaderData;
  const busy = useNavigation().state !== "idle";
  if (loaderData.expired || !loaderData.dashboard) {
    return (
      <SandboxPage title="This link has expired">
        <p>Dashboard links work for 15 minutes. Open your payouts dashboard again from your payments page in {appName}.</p>
        <p className="mt-4">
          <a href="/app/account/payments">Go to My Payments</a>
        </p>
      </SandboxPage>
    );
  }
  const d = loaderData.dashboard;
  const usd = (n: number) => formatAmount(n, "usd");
  const minus = (n: number) => (n === 0 ? usd(0) : `−${usd(n)}`);
  return (
    <SandboxPage title="Payouts dashboard" wide>
      {actionData ? (
        <div className="mb-4">
          <FormNotice kind={actionData.done ? "success" : "error"}>{actionData.message}</FormNotice>
        </div>
      ) : null}
      <p className="text-muted">
        Account of <strong className="text-ink">{d.name}</strong>
        {d.bankLast4 ? <> · pays out to the test bank account ending {d.bankLast4}</> : null}
      </p>
      <section aria-labelledby="balance-heading" className="mt-6 rounded-xl border border-ink/15 p-4">
        <h2 id="balance-heading" className="text-lg font-bold">
          Balance
        </h2>
        <p className="mt-1 text-3xl font-bold">{usd(d.balance)}</p>
        <p className="mt-2 text-sm text-muted">
          {d.payoutsEnabled
            ? "Payout schedule: daily, automatic, two business days after each payment (as Stripe's standard US schedule). In the sandbox no payout is ever sent."
            : "Payouts are not enabled yet: finish onboarding first."}
        </p>
      </section>

      <section aria-labelledby="payments-heading" className="mt-8">
        <h2 id="payments-heading" className="text-lg font-bold">
          Payments
        </h2>
        {d.payments.length === 0 ? (
          <p className="mt-2 text-muted">No payments yet.</p>
        ) : (
          <ul className="mt-3 space-y-3">
            {d.payments.map((p) => (
              <li key={p.id} className="rounded-xl border border-ink/15 p-4">
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <span className="font-semibold">{when(p.created)}</span>
                  <span className={`rounded-full px-2 py-0.5 text-sm font-medium ${p.refunded ? "bg-amber-100 text-amber-950" : "bg-secondary/50 text-ink"}`}>
                    {p.refunded ? "Refunded" : "Succeeded"}
                  </span>
                </div>
                <p className="mt-1 break-all text-sm text-muted">
                  {p.email} · {p.card}
                </p>
                <dl className="mt-3 grid grid-cols-3 gap-x-4 gap-y-1 text-sm">
                  <div>
                    <dt className="text-muted">Gross</dt>
                    <dd className="font-semibold">{usd(p.gross)}</dd>
                  </div>
                  <div>
                    <dt className="text-muted">Platform fee</dt>
                    <dd className="font-semibold">{minus(p.platformFee)}</dd>
                  </div>
                  <div>
                    <dt className="text-muted">Net</dt>
                    <dd className="font-semibold">{usd(p.net)}</dd>
                  </div>
                </dl>
                <p className="mt-2 text-sm text-muted">Card processing fee {usd(p.processingFee)}, paid by the platform.</p>
                {p.dispute ? (
                  <p className="mt-2 text-sm font-semibold">
                    {DISPUTE_LABELS[p.dispute.status] ?? p.dispute.status}
                    {p.dispute.status === "needs_response" ? ` · evidence due by ${when(p.dispute.evidenceDueBy)}` : ""} · dispute fee {usd(p.dispute.fee)}, paid by the platform
                  </p>
                ) : null}
                {p.refunded && !p.dispute ? null : (
                  <Form method="post" className="mt-3 flex flex-wrap items-center gap-2" aria-label={`Test actions for the payment of ${when(p.created)}`}>
                    <input type="hidden" name="payment" value={p.id} />
                    <span className="text-sm text-muted">Test actions (as the sponsor&apos;s bank):</span>
                    {!p.dispute ? (
                      <button type="submit" name="intent" value="dispute" className={secondaryButton} disabled={busy}>
                        Open a dispute
                      </button>
                    ) : p.dispute.status === "needs_response" ? (
                      <>
                        <button type="submit" name="intent" value="won" className={secondaryButton} disabled={busy}>
                          Dispute won
                        </button>
                        <button type="submit" name="intent" value="lost" className={secondaryButton} disabled={busy}>
                          Dispute lost
                        </button>
                      </>
                    ) : (
                      <span className="text-sm">Decided.</span>
                    )}
                  </Form>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="memberships-clock-heading" className="mt-8 rounded-xl border-2 border-dashed border-amber-600 bg-amber-50 p-4 text-amber-950">
        <h2 id="memberships-clock-heading" className="text-lg font-bold">
          Memberships: test clock (sandbox only)
        </h2>
        <p className="mt-2 text-sm">
          {d.runningMemberships === 1 ? "1 membership pays" : `${d.runningMemberships} memberships pay`} this account. Advancing the test clock moves each on by one period: it
          renews, fails to renew (with the 4000 0000 0000 0341 card), or ends if it was cancelled or its renewal stayed unpaid.
        </p>
        <Form method="post" className="mt-3">
          <button type="submit" name="intent" value="advance-memberships" className={secondaryButton} disabled={busy || d.runningMemberships === 0}>
            Advance the test clock
          </button>
        </Form>
      </section>

      <section aria-labelledby="refunds-heading" className="mt-8">
        <h2 id="refunds-heading" className="text-lg font-bold">
          Refunds
        </h2>
        {d.refunds.length === 0 ? (
          <p className="mt-2 text-muted">No refunds.</p>
        ) : (
          <ul className="mt-3 space-y-3">
            {d.refunds.map((r) => (
              <li key={r.id} className="rounded-xl border border-ink/15 p-4 text-sm">
                <p className="font-semibold">{when(r.created)}</p>
                <p className="mt-1">
                  {usd(r.amount)} returned to the sponsor: {usd(r.debit)} taken back from this balance, the rest from the platform.
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="transfers-heading" className="mt-8">
        <h2 id="transfers-heading" className="text-lg font-bold">
          Transfers from the platform
        </h2>
        {d.transfers.length === 0 ? (
          <p className="mt-2 text-muted">No transfers.</p>
        ) : (
          <ul className="mt-3 space-y-3">
            {d.transfers.map((t) => (
              <li key={t.id} className="rounded-xl border border-ink/15 p-4 text-sm">
                <p className="font-semibold">{when(t.created)}</p>
                <p className="mt-1 break-all">
                  {usd(t.amount)} released by the platform from money it held ({t.transferGroup}).
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>
    </SandboxPage>
  );
}
