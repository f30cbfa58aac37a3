import { data, Form, useNavigation } from "react-router";
import type { CardField } from "#server/providers/payments/sandbox/cards";
import { isSandboxId } from "#server/providers/payments/sandbox/ids";
import { safeReturnUrl } from "#server/providers/payments/sandbox/links";
import { checkMembershipCardLink, readMembershipCardPage, updateMembershipCard } from "#server/providers/payments/sandbox/membership-pay";
import { FormNotice, primaryButton, secondaryButton } from "#page-kit/forms";
import { CardFieldset } from "#server/providers/payments/sandbox/components/CardFieldset";
import { TestCardList } from "#server/providers/payments/sandbox/components/TestCardList";
import { formatAmount, SandboxPage } from "#server/providers/payments/sandbox/components/TestModeBanner";
import { readForm } from "#page-kit/form.server";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/membership-card";
import { cardFrom, requireSandbox } from "./sandbox.server";
import { answerRefusal, refuse } from "#page-kit/respond.server";

const dayText = (date: Date) => new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(date);
const STATUS_TEXT: Record<string, string> = { active: "Active", past_due: "Past due: the renewal payment failed", canceled: "Ended" };

/** The link's check, shared by the page and its forms: a signed link for one subscription (createMembershipCardLink). */
function checked(request: Request, context: Route.LoaderArgs["context"], subscriptionId: string | undefined) {
  const sandbox = requireSandbox(context);
  if (!isSandboxId("sub", subscriptionId)) refuse("not-found");
  const search = new URL(request.url).searchParams;
  const check = checkMembershipCardLink(sandbox.linkKey, subscriptionId, search, sandbox.now());
  if (check === "invalid") refuse("not-found");
  return { sandbox, subscriptionId, check, returnUrl: safeReturnUrl(context.config.PUBLIC_ORIGIN, search.get("return"), "/") };
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { subscriptionId, check, returnUrl } = checked(request, context, params.subscriptionId);
  const appName = context.config.APP_NAME;
  if (check === "expired") return answerRefusal({ code: "gone" }, { expired: true as const, appName, returnUrl, page: null });
  const page = await readMembershipCardPage(context.db, subscriptionId);
  if (!page) refuse("not-found");
  return {
    expired: false as const,
    appName,
    returnUrl,
    page: {
      ...page,
      price: `${formatAmount(page.amount, page.currency)} per ${page.interval}`,
      statusText: page.cancelAtPeriodEnd && page.status !== "canceled" ? "Cancelled: active until the period ends" : (STATUS_TEXT[page.status] ?? page.status),
      periodEnd: dayText(page.currentPeriodEnd),
      owed: page.owed ? formatAmount(page.owed.amount, page.owed.currency) : null,
    },
  };
}

type ActionData = { done: boolean; message: string; field?: CardField };

export async function action({ request, context, params }: Route.ActionArgs) {
  const { sandbox, subscriptionId, check } = checked(request, context, params.subscriptionId);
  if (check === "expired") return answerRefusal<ActionData>({ code: "gone" }, { done: false, message: "This link has expired. Open it again from your membership page." });
  const read = await readForm(request);
  if (read.kind === "ERROR") return answerRefusal<ActionData>(read, { done: false, message: read.message });
  const intent = read.form.get("intent");
  if (intent === "advance") {
    const report = await sandbox.advanceMemberships({ subscriptionId });
    const message = report.renewed ? "Renewed for another period." : report.failed ? "The renewal payment failed: the membership is past due." : report.ended ? "The period ended: the membership is over." : "Nothing to move on: the membership has ended.";
    return data<ActionData>({ done: true, message });
  }
  if (intent !== "card") return answerRefusal<ActionData>({ code: "invalid-argument" }, { done: false, message: "Unknown action." });
  const result = await updateMembershipCard(context.db, subscriptionId, cardFrom(read.form), sandbox.now());
  if (result.kind === "SUCCESS") {
    sandbox.outbox.kick();
    return data<ActionData>({ done: true, message: result.message });
  }
  // A retried renewal that failed again stored its event with the card.
  if (result.reason === "renewal_failed") sandbox.outbox.kick();
  return answerRefusal<ActionData>(result, { done: false, message: result.message, field: "field" in result ? result.field : undefined });
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Update your card (sandbox)", noindex: true });

export default function SandboxMembershipCard({ loaderData, actionData }: Route.ComponentProps) {
  const { appName, returnUrl } = loaderData;
  const busy = useNavigation().state !== "idle";
  if (loaderData.expired || !loaderData.page) {
    return (
      <SandboxPage title="This link has expired">
        <p>Card update links work for an hour. Open it again from your membership page in {appName}.</p>
        <p className="mt-4">
          <a href={returnUrl}>Back to {appName}</a>
        </p>
      </SandboxPage>
    );
  }
  const page = loaderData.page;
  const running = page.status !== "canceled";
  const cardError = actionData?.field ? actionData.message : undefined;
  return (
    <SandboxPage title="Your membership's card">
      <p className="text-muted">Membership billing for {page.email}.</p>
      {actionData && !actionData.field ? (
        <div className="mt-4" role="status">
          <FormNotice kind={actionData.done ? "success" : "error"}>{actionData.message}</FormNotice>
        </div>
      ) : null}

      <section aria-labelledby="membership-heading" className="mt-6 rounded-xl border border-ink/15 p-4">
        <h2 id="membership-heading" className="text-lg font-bold">
          {page.productName}
        </h2>
        <dl className="mt-2 space-y-2">
          <div>
            <dt className="text-sm text-muted">Price</dt>
            <dd className="font-semibold">{page.price}</dd>
          </div>
          <div>
            <dt className="text-sm text-muted">Status</dt>
            <dd className="font-semibold">{page.statusText}</dd>
          </div>
          {running ? (
            <div>
              <dt className="text-sm text-muted">{page.cancelAtPeriodEnd ? "Ends on" : "Current period ends"}</dt>
              <dd className="font-semibold">{page.periodEnd}</dd>
            </div>
          ) : null}
          {page.owed ? (
            <div>
              <dt className="text-sm text-muted">Unpaid renewal</dt>
              <dd className="font-semibold">{page.owed}: a new card pays it at once</dd>
            </div>
          ) : null}
        </dl>
      </section>

      <section aria-labelledby="card-heading" className="mt-6 rounded-xl border border-ink/15 p-4">
        <h2 id="card-heading" className="text-lg font-bold">
          Payment method
        </h2>
        <p className="mt-2">{page.card ? `${page.card.brand.toUpperCase()} ending in ${page.card.last4}${page.card.failsRenewal ? " (test card: its renewals fail)" : ""}` : "No card on file."}</p>
        {running ? (
          <Form method="post" className="mt-4 space-y-4" noValidate>
            <CardFieldset legend="New card" hint="Test mode: use 4242 4242 4242 4242." errorFor={(field) => (actionData?.field === field ? cardError : undefined)} />
            <button type="submit" name="intent" value="card" className={primaryButton} disabled={busy}>
              {page.owed ? `Save card and pay ${page.owed}` : "Save card"}
            </button>
          </Form>
        ) : null}
        <div className="mt-4">
          <TestCardList />
        </div>
      </section>

      <section aria-labelledby="clock-heading" className="mt-6 rounded-xl border-2 border-dashed border-amber-600 bg-amber-50 p-4 text-amber-950">
        <h2 id="clock-heading" className="text-lg font-bold">
          Test clock (sandbox only)
        </h2>
        <p className="mt-2 text-sm">
          Lets time pass without waiting: the membership renews, fails to renew (with the 4000 0000 0000 0341 card), or ends if it was cancelled or its renewal stayed unpaid.
        </p>
        <Form method="post" className="mt-3">
          <button type="submit" name="intent" value="advance" className={secondaryButton} disabled={busy || !running}>
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
