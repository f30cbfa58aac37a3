import { Link } from "react-router";
import { BILLING_LIMITS, billingDetailsOf, billingFormOf, saveBillingDetails, type BillingDetailsForm as Fields, type BillingFieldErrors } from "#server/domains/accounts/billing-details";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { domainError } from "#server/platform/errors";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import { BillingDetailsForm } from "#app/components/billing/BillingDetailsForm";
import { formText } from "#app/lib/identity.server";
import { readAccountSectionForm } from "#app/lib/account-section.server";
import { PageNotice } from "#page-kit/forms";
import { pageMeta } from "#page-kit/meta";
import { answerRefusal } from "#page-kit/respond.server";
import type { Route } from "./+types/billing";

const HERE = "/app/account/billing";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const details = await billingDetailsOf(context.db, user.id);
  return { values: billingFormOf(details), saved: details !== null, accountName: user.name, limits: BILLING_LIMITS };
}

type ActionResult = { values?: Fields; fieldErrors?: BillingFieldErrors; error?: string };

const fieldsOf = (form: FormData): Fields => ({
  legalName: formText(form, "legalName"),
  address: formText(form, "address"),
  country: formText(form, "country"),
  taxId: formText(form, "taxId"),
  taxLabel: formText(form, "taxLabel"),
  taxRate: formText(form, "taxRate"),
});

export async function action({ request, context }: Route.ActionArgs) {
  const post = await readAccountSectionForm<ActionResult>(request, context);
  if (post.refused) return post.refused;
  const { user, form, intent } = post;
  if (intent !== "save") {
    const unknown = domainError("invalid-argument", "Unknown action.");
    return answerRefusal<ActionResult>(unknown, { error: unknown.message });
  }
  const values = fieldsOf(form);
  const result = await saveBillingDetails(context.db, user.id, values);
  if (result.kind === "ERROR") return answerRefusal<ActionResult>(result, { values, fieldErrors: result.fieldErrors });
  return redirectWithToast(request, context.sessionSecret, HERE, { kind: "success", message: "Billing details saved. Invoices of deals booked from now on show them." });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Billing details", noindex: true });

export default function BillingDetails({ loaderData, actionData }: Route.ComponentProps) {
  const { values, saved, accountName, limits } = loaderData;
  const refused = actionData as ActionResult | undefined;
  return (
    <div className="mx-auto max-w-2xl px-4 py-10 sm:py-14">
      <p className="text-sm">
        <Link to="/app/account">My Account</Link> <span aria-hidden="true">›</span> Billing details
      </p>
      <h1 className="mt-2 text-3xl font-bold">Billing details</h1>
      <p className="mt-3">
        What the invoices of your deals say about you, as the sponsor who pays or the creator who is paid. Each invoice keeps the details as they were
        when its deal was booked.
      </p>
      {saved ? null : <p className="mt-2 text-muted">Until you save them, invoices show your account name, {accountName}, and nothing else.</p>}
      <PageNotice>{refused?.error}</PageNotice>
      {refused?.fieldErrors ? <PageNotice>Some fields need a change: see below.</PageNotice> : null}
      <div className="mt-8 rounded-2xl border border-primary/15 p-4 shadow-sm sm:p-6">
        <BillingDetailsForm values={refused?.values ?? values} errors={refused?.fieldErrors ?? {}} limits={limits} />
      </div>
    </div>
  );
}
