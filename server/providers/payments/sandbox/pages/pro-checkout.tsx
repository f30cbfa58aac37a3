import { Form, redirect, useNavigation } from "react-router";
import type { CardField } from "#server/providers/payments/sandbox/cards";
import { isSandboxId } from "#server/providers/payments/sandbox/ids";
import { loadProCheckoutView, payProCheckout } from "#server/providers/payments/sandbox/pro-pay";
import { FormNotice, primaryButton } from "#page-kit/forms";
import { CardFieldset } from "#server/providers/payments/sandbox/components/CardFieldset";
import { formatAmount, SandboxPage } from "#server/providers/payments/sandbox/components/TestModeBanner";
import { readForm } from "#page-kit/form.server";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/pro-checkout";
import { requireSandbox } from "./sandbox.server";
import { answerRefusal, refuse } from "#page-kit/respond.server";

/** The sandbox's hosted checkout for a Pro plan: a subscription (Launchpad, Star Power) or a one-time payment (Limitless). */
export async function loader({ context, params }: Route.LoaderArgs) {
  const sandbox = requireSandbox(context);
  if (!isSandboxId("cs", params.checkoutId)) refuse("not-found");
  const view = await loadProCheckoutView(context.db, params.checkoutId, sandbox.now());
  if (!view) refuse("not-found");
  return { view, appName: context.config.APP_NAME };
}

type ActionData = { field?: CardField; expired?: true; alreadyPro?: true; message: string; values: { expiry: string; postalCode: string } };

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

export async function action({ request, context, params }: Route.ActionArgs) {
  const sandbox = requireSandbox(context);
  if (!isSandboxId("cs", params.checkoutId)) refuse("not-found");
  const read = await readForm(request);
  if (read.kind === "ERROR") return answerRefusal<ActionData>(read, { message: read.message, values: { expiry: "", postalCode: "" } });
  const card = { number: text(read.form, "cardNumber"), expiry: text(read.form, "expiry"), cvc: text(read.form, "cvc"), postalCode: text(read.form, "postalCode") };
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
    <section aria-labelledby="summary-heading" className="rounded-xl border border-ink/15 bg-secondary/20 p-4">
      <h2 id="summary-heading" className="sr-only">
        What you are paying for
      </h2>
      <p className="font-semibold">{view.productName}</p>
      <p className="mt-2 text-3xl font-bold">{priceText(view)}</p>
      <p className="mt-2 text-sm text-muted">
        {view.interval ? `Renews every ${view.interval} until you cancel. ` : "A one-time payment: it never renews. "}Billed to <strong className="text-ink">{view.email}</strong>
      </p>
    </section>
  );
}

export default function SandboxProCheckout({ loaderData, actionData }: Route.ComponentProps) {
  const { view, appName } = loaderData;
  const busy = useNavigation().state !== "idle";
  if (view.status === "complete") {
    return (
      <SandboxPage title="Already paid">
        <Summary view={view} />
        <div className="mt-6">
          <FormNotice kind="success">This checkout is already paid. Nothing more was charged.</FormNotice>
        </div>
        {view.successUrl ? (
          <p className="mt-6">
            <a href={view.successUrl}>Continue to {appName}</a>
          </p>
        ) : null}
      </SandboxPage>
    );
  }
  if (view.status === "expired" || actionData?.expired) {
    return (
      <SandboxPage title="This checkout has expired">
        <Summary view={view} />
        <p className="mt-6">Checkouts can be paid for 24 hours. Nothing was charged; choose your plan again in {appName}.</p>
        <p className="mt-4">
          <a href={view.cancelUrl}>Back to {appName}</a>
        </p>
      </SandboxPage>
    );
  }
  if (actionData?.alreadyPro) {
    return (
      <SandboxPage title="You are already a Pro">
        <Summary view={view} />
        <div className="mt-6">
          <FormNotice>{actionData.message}</FormNotice>
        </div>
        <p className="mt-4">
          <a href={view.cancelUrl}>Back to {appName}</a>
        </p>
      </SandboxPage>
    );
  }
  const values = actionData?.values ?? { expiry: "", postalCode: "" };
  const errorFor = (field: CardField) => (actionData?.field === field ? actionData.message : undefined);
  return (
    <SandboxPage title={view.interval ? "Subscribe with a test card" : "Pay with a test card"}>
      <Summary view={view} />
      {actionData?.message && !actionData.field ? (
        <div className="mt-6">
          <FormNotice>{actionData.message}</FormNotice>
        </div>
      ) : null}
      <Form method="post" className="mt-6 space-y-5" noValidate>
        <CardFieldset
          legend="Card information"
          hint={
            <>
              Test mode: 4242 4242 4242 4242 pays; 4000 0000 0000 0341 pays now but its renewals fail. <a href="/sandbox">More test cards</a>
            </>
          }
          errorFor={errorFor}
          values={values}
        />
        <button type="submit" className={`${primaryButton} w-full`} disabled={busy}>
          {busy ? "Paying…" : view.interval ? `Subscribe: ${priceText(view)}` : `Pay ${formatAmount(view.amount, view.currency)}`}
        </button>
      </Form>
      <p className="mt-6 text-center">
        <a href={view.cancelUrl}>Cancel and return to {appName}</a>
      </p>
    </SandboxPage>
  );
}
