import { data, Form, useNavigation } from "react-router";
import type { CardField } from "#server/providers/payments/sandbox/cards";
import { isSandboxId } from "#server/providers/payments/sandbox/ids";
import { safeReturnUrl } from "#server/providers/payments/sandbox/links";
import { applyPortalAction, checkPortalLink, type PortalAction, readPortal } from "#server/providers/payments/sandbox/portal";
import { isProPlanKey, PRO_PLANS } from "#isomorphic/pro-plans";
import { FormNotice, primaryButton, secondaryButton } from "#page-kit/forms";
import { CardFieldset } from "#server/providers/payments/sandbox/components/CardFieldset";
import { SandboxPage } from "#server/providers/payments/sandbox/components/TestModeBanner";
import { readForm } from "#page-kit/form.server";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/portal";
import { cardFrom, requireSandbox } from "./sandbox.server";
import { answerRefusal, refuse } from "#page-kit/respond.server";

const dayText = (date: Date) => new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(date);
const STATUS_TEXT = { active: "Active", past_due: "Past due: the renewal payment failed", canceled: "Ended" } as Record<string, string>;

/** The link's check, shared by the page and its forms: a signed link for one customer (createPortalLink). */
function checked(request: Request, context: Route.LoaderArgs["context"], customerId: string | undefined) {
  const sandbox = requireSandbox(context);
  if (!isSandboxId("cus", customerId)) refuse("not-found");
  const search = new URL(request.url).searchParams;
  const check = checkPortalLink(sandbox.linkKey, customerId, search, sandbox.now());
  if (check === "invalid") refuse("not-found");
  return { sandbox, customerId, check, returnUrl: safeReturnUrl(context.config.PUBLIC_ORIGIN, search.get("return"), "/app/account") };
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { customerId, check, returnUrl } = checked(request, context, params.customerId);
  const appName = context.config.APP_NAME;
  if (check === "expired") return answerRefusal({ code: "gone" }, { expired: true as const, appName, returnUrl, portal: null });
  const portal = await readPortal(context.db, customerId);
  if (!portal) refuse("not-found");
  const sub = portal.subscription;
  return {
    expired: false as const,
    appName,
    returnUrl,
    portal: {
      email: portal.email,
      card: portal.card,
      limitless: portal.limitless ? dayText(portal.limitless.paidAt) : null,
      subscription: sub
        ? {
            plan: sub.plan,
            planName: sub.plan ? PRO_PLANS[sub.plan].name : "Unknown plan",
            status: sub.status,
            statusText: STATUS_TEXT[sub.status] ?? sub.status,
            periodEnd: dayText(sub.currentPeriodEnd),
            cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
            running: sub.status === "active" || sub.status === "past_due",
          }
        : null,
    },
  };
}

type ActionData = { done: boolean; message: string; field?: CardField };

function actionOf(form: FormData): PortalAction | null {
  switch (form.get("intent")) {
    case "switch": {
      const plan = form.get("plan");
      return isProPlanKey(plan) ? { kind: "switch", plan } : null;
    }
    case "cancel":
      return { kind: "cancel" };
    case "resume":
      return { kind: "resume" };
    case "advance":
      return { kind: "advance" };
    case "card":
      return { kind: "card", card: cardFrom(form) };
    default:
      return null;
  }
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { sandbox, customerId, check } = checked(request, context, params.customerId);
  if (check === "expired") return answerRefusal<ActionData>({ code: "gone" }, { done: false, message: "This portal link has expired. Open the Pro Portal again from your account." });
  const read = await readForm(request);
  if (read.kind === "ERROR") return answerRefusal<ActionData>(read, { done: false, message: read.message });
  const portalAction = actionOf(read.form);
  if (!portalAction) return answerRefusal<ActionData>({ code: "invalid-argument" }, { done: false, message: "Unknown action." });
  const result = await applyPortalAction(context.db, customerId, portalAction, sandbox.now());
  if (result.kind === "SUCCESS") {
    sandbox.outbox.kick();
    return data<ActionData>({ done: true, message: result.message });
  }
  return answerRefusal<ActionData>(result, { done: false, message: result.message, field: "field" in result ? result.field : undefined });
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Billing portal (sandbox)", noindex: true });

export default function SandboxPortal({ loaderData, actionData }: Route.ComponentProps) {
  const { appName, returnUrl } = loaderData;
  const busy = useNavigation().state !== "idle";
  if (loaderData.expired || !loaderData.portal) {
    return (
      <SandboxPage title="This link has expired">
        <p>Billing portal links work for an hour. Open the Pro Portal again from your account in {appName}.</p>
        <p className="mt-4">
          <a href={returnUrl}>Back to {appName}</a>
        </p>
      </SandboxPage>
    );
  }
  const { subscription: sub, card, limitless, email } = loaderData.portal;
  const cardError = actionData?.field ? actionData.message : undefined;
  const otherPlan = sub?.plan === "launchpad" ? "star_power" : sub?.plan === "star_power" ? "launchpad" : null;
  return (
    <SandboxPage title="Billing portal">
      <p className="text-muted">Pro membership billing for {email}.</p>
      {actionData && !actionData.field ? (
        <div className="mt-4" role="status">
          <FormNotice kind={actionData.done ? "success" : "error"}>{actionData.message}</FormNotice>
        </div>
      ) : null}

      <section aria-labelledby="plan-heading" className="mt-6 rounded-xl border border-ink/15 p-4">
        <h2 id="plan-heading" className="text-lg font-bold">
          Current plan
        </h2>
        {limitless ? <p className="mt-2">Limitless, paid on {limitless}. It never expires.</p> : null}
        {sub ? (
          <dl className="mt-2 space-y-2">
            <div>
              <dt className="text-sm text-muted">Subscription</dt>
              <dd className="font-semibold">{sub.planName}</dd>
            </div>
            <div>
              <dt className="text-sm text-muted">Status</dt>
              <dd className="font-semibold">{sub.cancelAtPeriodEnd && sub.running ? "Cancelled: active until the period ends" : sub.statusText}</dd>
            </div>
            <div>
              <dt className="text-sm text-muted">{sub.running ? (sub.cancelAtPeriodEnd ? "Ends on" : "Current period ends") : "Ended"}</dt>
              <dd className="font-semibold">{sub.periodEnd}</dd>
            </div>
          </dl>
        ) : !limitless ? (
          <p className="mt-2">No Pro plan yet.</p>
        ) : null}
        {sub?.running ? (
          <div className="mt-4 flex flex-wrap gap-3">
            {otherPlan ? (
              <Form method="post">
                <input type="hidden" name="plan" value={otherPlan} />
                <button type="submit" name="intent" value="switch" className={secondaryButton} disabled={busy}>
                  Switch to {PRO_PLANS[otherPlan].name}
                </button>
              </Form>
            ) : null}
            <Form method="post">
              {sub.cancelAtPeriodEnd ? (
                <button type="submit" name="intent" value="resume" className={secondaryButton} disabled={busy}>
                  Resume plan
                </button>
              ) : (
                <button type="submit" name="intent" value="cancel" className={secondaryButton} disabled={busy}>
                  Cancel plan
                </button>
              )}
            </Form>
          </div>
        ) : null}
      </section>

      <section aria-labelledby="card-heading" className="mt-6 rounded-xl border border-ink/15 p-4">
        <h2 id="card-heading" className="text-lg font-bold">
          Payment method
        </h2>
        <p className="mt-2">{card ? `${card.brand.toUpperCase()} ending in ${card.last4}${card.failsRenewal ? " (test card: its renewals fail)" : ""}` : "No card on file."}</p>
        <Form method="post" className="mt-4 space-y-4" noValidate>
          <CardFieldset legend="Update card" hint="Test mode: use 4242 4242 4242 4242." errorFor={(field) => (actionData?.field === field ? cardError : undefined)} />
          <button type="submit" name="intent" value="card" className={primaryButton} disabled={busy}>
            Save card
          </button>
        </Form>
      </section>

      <section aria-labelledby="clock-heading" className="mt-6 rounded-xl border-2 border-dashed border-amber-600 bg-amber-50 p-4 text-amber-950">
        <h2 id="clock-heading" className="text-lg font-bold">
          Test clock (sandbox only)
        </h2>
        <p className="mt-2 text-sm">
          Lets time pass without waiting: the subscription renews, fails to renew (with the 4000 0000 0000 0341 card), or ends if it was cancelled or its
          renewal stayed unpaid. Limitless never expires.
        </p>
        <Form method="post" className="mt-3">
          <button type="submit" name="intent" value="advance" className={secondaryButton} disabled={busy || !sub?.running}>
            Advance to the end of the period
          </button>
        </Form>
      </section>

      <p className="mt-8 text-center">
        <a href={returnUrl}>Return to {appName}</a>
      </p>
    </SandboxPage>
  );
}
