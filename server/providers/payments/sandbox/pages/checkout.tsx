import { redirect, useNavigation } from "react-router";
import { loadCheckoutView } from "#server/providers/payments/sandbox/checkout-view";
import { payCheckout, type PaymentFormField } from "#server/providers/payments/sandbox/pay";
import { TextField } from "#page-kit/forms";
import { CardCheckout, CheckoutAlreadyPaid, CheckoutExpired, CheckoutSummary } from "#server/providers/payments/sandbox/components/HostedCheckout";
import { formatAmount } from "#server/providers/payments/sandbox/components/TestModeBanner";
import { readForm } from "#page-kit/form.server";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/checkout";
import { cardFrom, formText, requireSandboxObject } from "./sandbox.server";
import { answerRefusal, refuse } from "#page-kit/respond.server";

export async function loader({ context, params }: Route.LoaderArgs) {
  const sandbox = requireSandboxObject(context, "cs", params.checkoutId);
  const view = await loadCheckoutView(sandbox, context.db, params.checkoutId);
  if (!view) refuse("not-found");
  return { view, appName: context.config.APP_NAME };
}

type ActionData = { field?: PaymentFormField; expired?: true; message: string; values: { email: string; expiry: string; postalCode: string } };

export async function action({ request, context, params }: Route.ActionArgs) {
  const sandbox = requireSandboxObject(context, "cs", params.checkoutId);
  const read = await readForm(request);
  if (read.kind === "ERROR") return answerRefusal<ActionData>(read, { message: read.message, values: { email: "", expiry: "", postalCode: "" } });
  const form = { email: formText(read.form, "email"), ...cardFrom(read.form) };
  const result = await payCheckout(context.db, params.checkoutId, form, sandbox.now(), sandbox.whyPayeeCannotBePaid);
  if (result.kind === "SUCCESS") {
    // A second submit of a paid checkout lands where the first one went; nothing is charged again.
    if (result.outcome === "PAID") sandbox.outbox.kick();
    throw redirect(result.redirectTo);
  }
  if (result.reason === "NOT_FOUND") refuse("not-found");
  if (result.reason === "EXPIRED") {
    sandbox.outbox.kick();
    return answerRefusal<ActionData>(result, { expired: true, message: result.message, values: { email: form.email, expiry: "", postalCode: "" } });
  }
  if (result.reason === "PAYEE_UNAVAILABLE") return answerRefusal<ActionData>(result, { message: result.message, values: { email: form.email, expiry: "", postalCode: "" } });
  // A declined card or email: the card number and security code are never sent back into the page.
  return answerRefusal<ActionData>(result, { field: result.field, message: result.message, values: { email: form.email, expiry: form.expiry, postalCode: form.postalCode } });
}

/** A person's checkout, account or balance: never kept by a shared cache or on disk. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Checkout (sandbox)", noindex: true });

function Summary({ view, appName }: { view: Route.ComponentProps["loaderData"]["view"]; appName: string }) {
  return (
    <CheckoutSummary>
      <p className="font-semibold">{view.productName}</p>
      {view.description ? <p className="mt-1 text-sm text-muted">{view.description}</p> : null}
      <p className="mt-2 text-3xl font-bold">{formatAmount(view.amount, view.currency)}</p>
      <p className="mt-2 text-sm text-muted">
        {view.payee === null ? (
          <>
            Paid to <strong className="text-ink">{appName}</strong>, which holds it until the deal is released
          </>
        ) : (
          <>
            Paid to <strong className="text-ink">{view.payee}</strong>
          </>
        )}
      </p>
    </CheckoutSummary>
  );
}

export default function SandboxCheckout({ loaderData, actionData }: Route.ComponentProps) {
  const { view, appName } = loaderData;
  const busy = useNavigation().state !== "idle";
  const summary = <Summary view={view} appName={appName} />;
  if (view.status === "complete") return <CheckoutAlreadyPaid summary={summary} successUrl={view.successUrl} appName={appName} />;
  if (view.status === "expired" || actionData?.expired) return <CheckoutExpired summary={summary} appName={appName} cancelUrl={view.cancelUrl} whatNext={`start again from ${appName} to pay.`} />;
  const values = actionData?.values ?? { email: view.email, expiry: "", postalCode: "" };
  const errorFor = (field: PaymentFormField) => (actionData?.field === field ? actionData.message : undefined);
  return (
    <CardCheckout
      title="Pay with a test card"
      summary={summary}
      notice={actionData?.field ? undefined : actionData?.message}
      before={<TextField label="Email" name="email" type="email" defaultValue={values.email} error={errorFor("email")} autoComplete="email" required />}
      cardHint={
        <>
          Test mode: use 4242 4242 4242 4242. <a href="/sandbox">More test cards</a>
        </>
      }
      errorFor={errorFor}
      values={values}
      busy={busy}
      submitLabel={`Pay ${formatAmount(view.amount, view.currency)}`}
      appName={appName}
      cancelUrl={view.cancelUrl}
    />
  );
}
