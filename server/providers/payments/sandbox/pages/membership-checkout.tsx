import { redirect, useNavigation } from "react-router";
import { loadMembershipCheckoutView, payMembershipCheckout } from "#server/providers/payments/sandbox/membership-pay";
import type { PaymentFormField } from "#server/providers/payments/sandbox/pay";
import { TextField } from "#page-kit/forms";
import { CardCheckout, CheckoutAlreadyPaid, CheckoutExpired, CheckoutSummary } from "#server/providers/payments/sandbox/components/HostedCheckout";
import { TestCardList } from "#server/providers/payments/sandbox/components/TestCardList";
import { formatAmount } from "#server/providers/payments/sandbox/components/TestModeBanner";
import { readForm } from "#page-kit/form.server";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/membership-checkout";
import { cardFrom, formText, requireSandboxObject } from "./sandbox.server";
import { answerRefusal, refuse } from "#page-kit/respond.server";

/** The sandbox's hosted checkout for a membership: a subscription paying the creator every month or year. */
export async function loader({ context, params }: Route.LoaderArgs) {
  const sandbox = requireSandboxObject(context, "cs", params.checkoutId);
  const view = await loadMembershipCheckoutView(context.db, params.checkoutId, sandbox.now());
  if (!view) refuse("not-found");
  // Opening one whose time was up stored its checkout.expired: it goes now.
  if (view.status === "expired") sandbox.outbox.kick();
  return { view, appName: context.config.APP_NAME };
}

type Values = { email: string; expiry: string; postalCode: string };
type ActionData = { field?: PaymentFormField; expired?: true; message: string; values: Values };
const EMPTY: Values = { email: "", expiry: "", postalCode: "" };

export async function action({ request, context, params }: Route.ActionArgs) {
  const sandbox = requireSandboxObject(context, "cs", params.checkoutId);
  const read = await readForm(request);
  if (read.kind === "ERROR") return answerRefusal<ActionData>(read, { message: read.message, values: EMPTY });
  const form = { email: formText(read.form, "email"), ...cardFrom(read.form) };
  const result = await payMembershipCheckout(context.db, params.checkoutId, form, sandbox.now());
  if (result.kind === "SUCCESS") {
    // A second submit of a paid checkout lands where the first one went; nothing is charged again.
    if (result.outcome === "PAID") sandbox.outbox.kick();
    throw redirect(result.redirectTo);
  }
  if (result.reason === "NOT_FOUND") refuse("not-found");
  if (result.reason === "EXPIRED") {
    sandbox.outbox.kick();
    return answerRefusal<ActionData>(result, { expired: true, message: result.message, values: { ...EMPTY, email: form.email } });
  }
  if (result.reason === "PAYEE_UNAVAILABLE") return answerRefusal<ActionData>(result, { message: result.message, values: { ...EMPTY, email: form.email } });
  // A declined card or email: the card number and security code are never sent back into the page.
  return answerRefusal<ActionData>(result, { field: result.field, message: result.message, values: { email: form.email, expiry: form.expiry, postalCode: form.postalCode } });
}

/** A person's checkout: never kept by a shared cache or on disk. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Membership checkout (sandbox)", noindex: true });

type View = Route.ComponentProps["loaderData"]["view"];
const priceText = (view: View) => `${formatAmount(view.amount, view.currency)} per ${view.interval}`;

function Summary({ view }: { view: View }) {
  return (
    <CheckoutSummary>
      <p className="font-semibold">{view.productName}</p>
      <p className="mt-2 text-3xl font-bold">{priceText(view)}</p>
      <p className="mt-2 text-sm text-muted">
        Paid to <strong className="text-ink">{view.payee}</strong>. Renews every {view.interval} until you cancel.
      </p>
    </CheckoutSummary>
  );
}

export default function SandboxMembershipCheckout({ loaderData, actionData }: Route.ComponentProps) {
  const { view, appName } = loaderData;
  const busy = useNavigation().state !== "idle";
  const summary = <Summary view={view} />;
  if (view.status === "complete") return <CheckoutAlreadyPaid summary={summary} successUrl={view.successUrl} appName={appName} />;
  if (view.status === "expired" || actionData?.expired) return <CheckoutExpired summary={summary} appName={appName} cancelUrl={view.cancelUrl} whatNext={`join again from ${appName}.`} />;
  const values = actionData?.values ?? { email: view.email, expiry: "", postalCode: "" };
  const errorFor = (field: PaymentFormField) => (actionData?.field === field ? actionData.message : undefined);
  return (
    <>
      <CardCheckout
        title="Join with a test card"
        summary={summary}
        notice={actionData?.field ? undefined : actionData?.message}
        before={<TextField label="Email" name="email" type="email" defaultValue={values.email} error={errorFor("email")} autoComplete="email" required />}
        cardHint={<>Test mode: 4242 4242 4242 4242 pays; 4000 0000 0000 0341 pays now but its renewals fail.</>}
        errorFor={errorFor}
        values={values}
        busy={busy}
        submitLabel={`Subscribe: ${priceText(view)}`}
        appName={appName}
        cancelUrl={view.cancelUrl}
      />
      <div className="mx-auto max-w-lg px-4 pb-10">
        <TestCardList />
      </div>
    </>
  );
}
