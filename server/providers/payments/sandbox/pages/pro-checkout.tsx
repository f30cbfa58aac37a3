import { redirect, useNavigation } from "react-router";
import type { CardField } from "#server/providers/payments/sandbox/cards";
import { loadProCheckoutView, payProCheckout } from "#server/providers/payments/sandbox/pro-pay";
import { FormNotice } from "#page-kit/forms";
import { CardCheckout, CheckoutAlreadyPaid, CheckoutClosed, CheckoutExpired, CheckoutSummary } from "#server/providers/payments/sandbox/components/HostedCheckout";
import { formatAmount } from "#server/providers/payments/sandbox/components/TestModeBanner";
import { readForm } from "#page-kit/form.server";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/pro-checkout";
import { cardFrom, requireSandboxObject } from "./sandbox.server";
import { answerRefusal, refuse } from "#page-kit/respond.server";

/** The sandbox's hosted checkout for a Pro plan: a subscription (Launchpad, Star Power) or a one-time payment (Limitless). */
export async function loader({ context, params }: Route.LoaderArgs) {
  const sandbox = requireSandboxObject(context, "cs", params.checkoutId);
  const view = await loadProCheckoutView(context.db, params.checkoutId, sandbox.now());
  if (!view) refuse("not-found");
  return { view, appName: context.config.APP_NAME };
}

type ActionData = { field?: CardField; expired?: true; alreadyPro?: true; message: string; values: { expiry: string; postalCode: string } };

export async function action({ request, context, params }: Route.ActionArgs) {
  const sandbox = requireSandboxObject(context, "cs", params.checkoutId);
  const read = await readForm(request);
  if (read.kind === "ERROR") return answerRefusal<ActionData>(read, { message: read.message, values: { expiry: "", postalCode: "" } });
  const card = cardFrom(read.form);
  const result = await payProCheckout(context.db, params.checkoutId, card, sandbox.now());
  if (result.kind === "SUCCESS") {
    if (result.outcome === "PAID") sandbox.outbox.kick();
    throw redirect(result.redirectTo);
  }
  if (result.reason === "NOT_FOUND") refuse("not-found");
  if (result.reason === "EXPIRED") return answerRefusal<ActionData>(result, { expired: true, message: result.message, values: { expiry: "", postalCode: "" } });
  if (result.reason === "ALREADY_PRO") return answerRefusal<ActionData>(result, { alreadyPro: true, message: result.message, values: { expiry: "", postalCode: "" } });
  // A declined card: the card number and security code are never sent back into the page.
  return answerRefusal<ActionData>(result, { field: result.field, message: result.message, values: { expiry: card.expiry, postalCode: card.postalCode } });
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Checkout (sandbox)", noindex: true });

type View = Route.ComponentProps["loaderData"]["view"];
const priceText = (view: View) => `${formatAmount(view.amount, view.currency)}${view.interval ? ` per ${view.interval}` : " once"}`;

function Summary({ view }: { view: View }) {
  return (
    <CheckoutSummary>
      <p className="font-semibold">{view.productName}</p>
      <p className="mt-2 text-3xl font-bold">{priceText(view)}</p>
      <p className="mt-2 text-sm text-muted">
        {view.interval ? `Renews every ${view.interval} until you cancel. ` : "A one-time payment: it never renews. "}Billed to <strong className="text-ink">{view.email}</strong>
      </p>
    </CheckoutSummary>
  );
}

export default function SandboxProCheckout({ loaderData, actionData }: Route.ComponentProps) {
  const { view, appName } = loaderData;
  const busy = useNavigation().state !== "idle";
  const summary = <Summary view={view} />;
  if (view.status === "complete") return <CheckoutAlreadyPaid summary={summary} successUrl={view.successUrl} appName={appName} />;
  if (view.status === "expired" || actionData?.expired) return <CheckoutExpired summary={summary} appName={appName} cancelUrl={view.cancelUrl} whatNext={`choose your plan again in ${appName}.`} />;
  if (actionData?.alreadyPro) {
    return (
      <CheckoutClosed title="You are already a Pro" summary={summary} appName={appName} cancelUrl={view.cancelUrl}>
        <div className="mt-6">
          <FormNotice>{actionData.message}</FormNotice>
        </div>
      </CheckoutClosed>
    );
  }
  const values = actionData?.values ?? { expiry: "", postalCode: "" };
  const errorFor = (field: CardField) => (actionData?.field === field ? actionData.message : undefined);
  return (
    <CardCheckout
      title={view.interval ? "Subscribe with a test card" : "Pay with a test card"}
      summary={summary}
      notice={actionData?.field ? undefined : actionData?.message}
      cardHint={
        <>
          Test mode: 4242 4242 4242 4242 pays; 4000 0000 0000 0341 pays now but its renewals fail. <a href="/sandbox">More test cards</a>
        </>
      }
      errorFor={errorFor}
      values={values}
      busy={busy}
      submitLabel={view.interval ? `Subscribe: ${priceText(view)}` : `Pay ${formatAmount(view.amount, view.currency)}`}
      appName={appName}
      cancelUrl={view.cancelUrl}
    />
  );
}
