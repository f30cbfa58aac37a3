import { Form, Link, useNavigation } from "react-router";
import { requireStaff } from "#server/domains/auth/staff-guard";
import { accountDetail } from "#server/domains/staff/accounts";
import { accountOverview } from "#server/features/back-office/account-overview";
import { liftSuspension, suspendAccount } from "#server/domains/staff/suspensions";
import { notificationDepsOf } from "#server/domains/notifications/deps";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import { answerRefusal, refuseWith, requireForm } from "#page-kit/respond.server";
import { pageMeta } from "#page-kit/meta";
import { FormNotice, TextArea, TextField, primaryButton, secondaryButton } from "#page-kit/forms";
import { utcDate, utcTime } from "#app/components/admin/format";
import { AccountStanding } from "#app/components/admin/AccountStanding";
import { AccountMemberships } from "#app/components/admin/AccountMemberships";
import type { Route } from "./+types/account";

/** GET /app/admin/accounts/:uid: who the account is, and its suspensions; POST suspends or lifts. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const found = await accountDetail(context.db, params.uid);
  if (found.kind === "ERROR") refuseWith(found);
  return { account: found.account, overview: await accountOverview(context.db, found.account.id), tomorrow: utcDate(new Date(Date.now() + 86_400_000)) };
}

type ActionData = { error?: string; fieldErrors?: { reason?: string; until?: string; liftReason?: string } };

export async function action({ request, context, params }: Route.ActionArgs) {
  const staff = await requireStaff(request, context);
  const form = await requireForm(request);
  const text = (name: string) => String(form.get(name) ?? "");
  const mail = notificationDepsOf(context);
  const lifting = form.get("intent") === "lift";
  const result = lifting
    ? await liftSuspension(context.db, mail, staff.actor, { uid: params.uid, reason: text("liftReason") })
    : await suspendAccount(context.db, mail, staff.actor, { uid: params.uid, reason: text("reason"), until: text("until") });
  if (result.kind === "ERROR") {
    return answerRefusal<ActionData>(result, "fieldErrors" in result ? { fieldErrors: result.fieldErrors as ActionData["fieldErrors"] } : { error: result.message });
  }
  return redirectWithToast(request, context.sessionSecret, new URL(request.url).pathname, {
    kind: "success",
    message: lifting ? "Suspension lifted. They can sign in again and have been told by mail." : "Account suspended. They are signed out and have been told by mail.",
  });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Account", noindex: true });

function Fact({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-wrap justify-between gap-2 py-2">
      <dt className="text-muted">{term}</dt>
      <dd className="min-w-0 break-all font-medium">{children}</dd>
    </div>
  );
}

const PAYOUT = { none: "No payout account", incomplete: "Set up, not complete", complete: "Complete" } as const;

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const { account, overview, tomorrow } = loaderData;
  const data = actionData as ActionData | undefined;
  const busy = useNavigation().state === "submitting";
  const open = account.suspensions.find((s) => !s.liftedAt);
  return (
    <>
      <p className="text-sm">
        <Link to="/app/admin/accounts">← Accounts</Link>
      </p>
      <h1 className="mt-2 break-all text-3xl font-bold">{account.name}</h1>
      <dl className="mt-4 max-w-2xl divide-y rounded-lg border px-4">
        <Fact term="Email">{account.email}</Fact>
        <Fact term="Account id">{account.id}</Fact>
        <Fact term="Role">{account.role === "admin" ? "Staff (admin)" : "User"}</Fact>
        <Fact term="Two-factor sign-in">{account.twoFactorEnabled ? "On" : "Off"}</Fact>
        <Fact term="Created">{utcTime(account.createdAt)}</Fact>
        <Fact term="Bio pages">{account.bioPages}</Fact>
        <Fact term="Opportunities">{account.opportunities}</Fact>
        <Fact term="Payout account">{PAYOUT[account.payout]}</Fact>
        <Fact term="Status">{open ? `Suspended${open.until ? ` until ${utcDate(open.until)}` : ""}` : account.disabled ? "Disabled" : "Active"}</Fact>
      </dl>

      <AccountStanding overview={overview} />
      <AccountMemberships memberships={overview.memberships} />

      {data?.error ? (
        <div className="mt-6 max-w-2xl">
          <FormNotice>{data.error}</FormNotice>
        </div>
      ) : null}

      {open ? (
        // Keyed apart from the suspend form: without the keys React would reuse the suspend form's
        // textarea for this one after a suspension, and the lift would start with the suspension's reason.
        <section key="lift" aria-labelledby="lift-heading" className="mt-8 max-w-2xl">
          <h2 id="lift-heading" className="text-xl font-semibold">
            Lift the suspension
          </h2>
          <p className="mt-1 text-muted">They can sign in again at once, their pages come back, and they are told by mail.</p>
          <Form method="post" className="mt-4 space-y-4">
            <input type="hidden" name="intent" value="lift" />
            <TextArea label="Why lift it" name="liftReason" required rows={2} maxLength={2000} error={data?.fieldErrors?.liftReason} />
            <button type="submit" className={secondaryButton} disabled={busy}>
              Lift suspension
            </button>
          </Form>
        </section>
      ) : account.role === "admin" ? (
        <p className="mt-8 max-w-2xl">Staff accounts cannot be suspended here: revoke the staff role from the command line first.</p>
      ) : (
        <section key="suspend" aria-labelledby="suspend-heading" className="mt-8 max-w-2xl">
          <h2 id="suspend-heading" className="text-xl font-semibold">
            Suspend this account
          </h2>
          <p className="mt-1 text-muted">They are signed out everywhere, cannot sign in, and their bio pages and opportunities are hidden and take no payments. They are told the reason by mail.</p>
          <Form method="post" className="mt-4 space-y-4">
            <input type="hidden" name="intent" value="suspend" />
            <TextArea label="Reason (sent to them)" name="reason" required rows={3} maxLength={2000} error={data?.fieldErrors?.reason} />
            <TextField label="Ends on (optional)" name="until" type="date" min={tomorrow} hint="Leave empty to suspend until lifted. It ends at 00:00 UTC that day." error={data?.fieldErrors?.until} />
            <button type="submit" className={primaryButton} disabled={busy}>
              Suspend account
            </button>
          </Form>
        </section>
      )}

      <section aria-labelledby="history-heading" className="mt-10 max-w-2xl">
        <h2 id="history-heading" className="text-xl font-semibold">
          Suspension history
        </h2>
        {account.suspensions.length === 0 ? (
          <p className="mt-2 text-muted">Never suspended.</p>
        ) : (
          <ol className="mt-2 space-y-3">
            {account.suspensions.map((s) => (
              <li key={s.id} className="rounded-lg border p-4 text-sm">
                <p>
                  <strong>Suspended</strong> {utcTime(s.suspendedAt)} by {s.suspendedByLabel}
                  {s.until ? `, until ${utcDate(s.until)}` : ""}
                </p>
                <p className="mt-1 break-words">Reason: {s.reason}</p>
                {s.liftedAt ? (
                  <p className="mt-1 break-words">
                    <strong>Lifted</strong> {utcTime(s.liftedAt)} by {s.liftedByLabel}: {s.liftReason}
                  </p>
                ) : (
                  <p className="mt-1 font-semibold">In force</p>
                )}
              </li>
            ))}
          </ol>
        )}
        <p className="mt-4 text-sm">
          <Link to={`/app/admin/audit?subject=${encodeURIComponent(account.id)}`}>This account in the audit log</Link>
        </p>
      </section>
    </>
  );
}
