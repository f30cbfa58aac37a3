import { Form, redirect, useNavigation } from "react-router";
import { loadCheckoutView } from "#server/providers/payments/sandbox/checkout-view";
import { isSandboxId } from "#server/providers/payments/sandbox/ids";
import { payCheckout, type PaymentFormField } from "#server/providers/payments/sandbox/pay";
import { FormNotice, primaryButton, TextField } from "#page-kit/forms";
import { CardFieldset } from "#server/providers/payments/sandbox/components/CardFieldset";
import { formatAmount, SandboxPage } from "#server/providers/payments/sandbox/components/TestModeBanner";
import { readForm } from "#page-kit/form.server";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/checkout";
import { requireSandbox } from "./sandbox.server";
import { answerRefusal, refuse } from "#page-kit/respond.server";

export async function loader({ context, params }: Route.LoaderArgs) {
  const sandbox = requireSandbox(context);
  if (!isSandboxId("cs", params.checkoutId)) refuse("not-found");
  const view = await loadCheckoutView(sandbox, context.db, params.checkoutId);
  if (!view) refuse("not-found");
  return { view, appName: context.config.APP_NAME };
}

type ActionData = { field?: PaymentFormField; expired?: true; message: string; values: { email: string; expiry: string; postalCode: string } };

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

export async function action({ request, context, params }: Route.ActionArgs) {
  const sandbox = requireSandbox(context);
  if (!isSandboxId("cs", params.checkoutId)) refuse("not-found");
  const read = await readForm(request);
  if (read.kind === "ERROR") return answerRefusal<ActionData>(read, { message: read.message, values: { email: "", expiry: "", postalCode: "" } });
  const form = { email: text(read.form, "email"), number: text(read.form, "cardNumber"), expiry: text(read.form, "expiry"), cvc: text(read.form, "cvc"), postalCode: text(read.form, "postalCode") };
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

function Summary({ view }: { view: Route.ComponentProps["loaderData"]["view"] }) {
  return (
    <section aria-labelledby="summary-heading" className="rounded-xl border border-ink/15 bg-secondary/20 p-4">
      <h2 id="summary-heading" className="sr-only">
        What you are paying for
      </h2>
      <p className="font-semibold">{view.productName}</p>
      {view.description ? <p className="mt-1 text-sm text-muted">{view.description}</p> : null}
      <p className="mt-2 text-3xl font-bold">{formatAmount(view.amount, view.currency)}</p>
      <p className="mt-2 text-sm text-muted">
        Paid to <strong className="text-ink">{view.payee}</strong>
      </p>
    </section>
  );
}

export default function SandboxCheckout({ loaderData, actionData }: Route.ComponentProps) {
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
        <p className="mt-6">Checkouts can be paid for 24 hours. Nothing was charged; start again from {appName} to pay.</p>
        <p className="mt-4">
          <a href={view.cancelUrl}>Back to {appName}</a>
        </p>
      </SandboxPage>
    );
  }
  const values = actionData?.values ?? { email: view.email, expiry: "", postalCode: "" };
  const errorFor = (field: PaymentFormField) => (actionData?.field === field ? actionData.message : undefined);
  return (
    <SandboxPage title="Pay with a test card">
      <Summary view={view} />
      {actionData?.message && !actionData.field ? (
        <div className="mt-6">
          <FormNotice>{actionData.message}</FormNotice>
        </div>
      ) : null}
      <Form method="post" className="mt-6 space-y-5" noValidate>
        <TextField label="Email" name="email" type="email" defaultValue={values.email} error={errorFor("email")} autoComplete="email" required />
        <CardFieldset
          legend="Card information"
          hint={
            <>
              Test mode: use 4242 4242 4242 4242. <a href="/sandbox">More test cards</a>
            </>
          }
          errorFor={errorFor}
          values={values}
        />
        <button type="submit" className={`${primaryButton} w-full`} disabled={busy}>
          {busy ? "Paying…" : `Pay ${formatAmount(view.amount, view.currency)}`}
        </button>
      </Form>
      <p className="mt-6 text-center">
        <a href={view.cancelUrl}>Cancel and return to {appName}</a>
      </p>
    </SandboxPage>
  );
}
