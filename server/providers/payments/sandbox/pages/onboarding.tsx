import { Form, Link, redirect, useLocation, useNavigation } from "react-router";
import { findSandboxAccount, isCurrentOnboardingLink } from "#server/providers/payments/sandbox/accounts";
import { isSandboxId } from "#server/providers/payments/sandbox/ids";
import { checkOnboardingLink, readOnboardingLink, safeReturnUrl } from "#server/providers/payments/sandbox/links";
import { parseOnboardingForm, TEST_BANK_ACCOUNT, type OnboardingField, type OnboardingValues } from "#server/providers/payments/sandbox/onboarding-form";
import { FormNotice, primaryButton, SelectField, TextField } from "#page-kit/forms";
import { SandboxPage } from "#server/providers/payments/sandbox/components/TestModeBanner";
import { readForm } from "#page-kit/form.server";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/onboarding";
import { requireSandbox } from "./sandbox.server";
import { answerRefusal, refuse } from "#page-kit/respond.server";

/**
 * The account link checks out and the account exists; an expired link goes
 * to the refresh URL, as Stripe's account links do. A link already used, or
 * replaced by a newer one, opens nothing: 410 and a page saying to start again
 * (whoever still holds it must not change the payout name or bank account).
 */
async function openLink(request: Request, context: Route.LoaderArgs["context"], accountId: string) {
  const sandbox = requireSandbox(context);
  if (!isSandboxId("acct", accountId)) refuse("not-found");
  const link = readOnboardingLink(accountId, new URL(request.url).searchParams);
  const check = checkOnboardingLink(sandbox.linkKey, link, sandbox.now());
  if (check === "invalid") refuse("not-found");
  if (check === "expired") throw redirect(safeReturnUrl(sandbox.origin, link.refreshUrl));
  const account = await findSandboxAccount(context.db, accountId);
  if (!account) refuse("not-found");
  return { sandbox, link, account, current: isCurrentOnboardingLink(account, link.linkId) };
}

const usedUp = (appName: string) => answerRefusal({ code: "gone" }, { view: "USED" as const, appName });

type ActionData = { values: OnboardingValues; errors: Partial<Record<OnboardingField, string>>; message?: string };

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { account, current } = await openLink(request, context, params.accountId);
  if (!current) return usedUp(context.config.APP_NAME);
  return { view: "OPEN" as const, email: account.email, legalName: account.legalName ?? "", appName: context.config.APP_NAME, accountType: account.accountType };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { sandbox, link, current } = await openLink(request, context, params.accountId);
  if (!current) return usedUp(context.config.APP_NAME);
  const read = await readForm(request);
  const empty: OnboardingValues = { legalName: "", country: "US", bankAccount: TEST_BANK_ACCOUNT, agree: false };
  if (read.kind === "ERROR") return answerRefusal<ActionData>(read, { values: empty, errors: {}, message: read.message });
  const parsed = parseOnboardingForm(read.form);
  if (parsed.kind === "ERROR") return answerRefusal<ActionData>(parsed, { values: parsed.values, errors: parsed.errors });
  // Null: another submit of this link got there first (or a newer link was made meanwhile).
  if (!(await sandbox.completeOnboarding(params.accountId, parsed.details, link.linkId))) return usedUp(context.config.APP_NAME);
  throw redirect(safeReturnUrl(sandbox.origin, link.returnUrl));
}

/** A person's checkout, account or balance: never kept by a shared cache or on disk. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Set up your payout account (sandbox)", noindex: true });

/** What a used or replaced link shows instead of the form. */
function LinkUsed({ appName }: { appName: string }) {
  return (
    <SandboxPage title="This link has expired">
      <p role="alert">This onboarding link has already been used or replaced by a newer one, so it can no longer change anything.</p>
      <p className="mt-4">
        To change your payout details, start again from Payments in {appName}:{" "}
        <Link to="/app/payments/setup" className="font-semibold">
          Payments setup
        </Link>
        .
      </p>
    </SandboxPage>
  );
}

export default function SandboxOnboarding({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.view === "USED") return <LinkUsed appName={loaderData.appName} />;
  if (actionData && "view" in actionData) return <LinkUsed appName={actionData.appName} />;
  return <OnboardingForm loaderData={loaderData} actionData={actionData} />;
}

function OnboardingForm({ loaderData, actionData }: { loaderData: Extract<Route.ComponentProps["loaderData"], { view: "OPEN" }>; actionData: ActionData | undefined }) {
  const location = useLocation();
  const busy = useNavigation().state === "submitting";
  const values = actionData?.values ?? { legalName: loaderData.legalName, country: "US", bankAccount: TEST_BANK_ACCOUNT, agree: false };
  const errors = actionData?.errors ?? {};
  const hasErrors = Object.keys(errors).length > 0;
  return (
    <SandboxPage title="Set up your payout account">
      <p className="text-muted">
        {loaderData.appName} uses the sandbox to pay <strong className="text-ink">{loaderData.email}</strong>. These details are pretend: nothing is
        checked with a bank and nothing is paid out.
      </p>
      {actionData?.message ? (
        <div className="mt-6">
          <FormNotice>{actionData.message}</FormNotice>
        </div>
      ) : null}
      {hasErrors ? (
        <div className="mt-6">
          <FormNotice>Please correct the fields marked below.</FormNotice>
        </div>
      ) : null}
      <Form method="post" action={`${location.pathname}${location.search}`} className="mt-6 space-y-5" noValidate>
        <TextField
          label={loaderData.accountType === "company" ? "Legal company name" : "Legal name"}
          name="legalName"
          defaultValue={values.legalName}
          error={errors.legalName}
          autoComplete="name"
          maxLength={100}
          required
        />
        <SelectField label="Country" name="country" defaultValue={values.country} error={errors.country}>
          <option value="US">United States</option>
        </SelectField>
        <TextField
          label="Bank account number"
          name="bankAccount"
          defaultValue={values.bankAccount}
          error={errors.bankAccount}
          hint="Prefilled with the test account 000123456789 (routing number 110000000)."
          inputMode="numeric"
          autoComplete="off"
          required
        />
        <div>
          <div className="flex items-start gap-3">
            <input
              id="field-agree"
              type="checkbox"
              name="agree"
              defaultChecked={values.agree}
              aria-invalid={errors.agree ? true : undefined}
              aria-describedby={errors.agree ? "field-agree-error" : undefined}
              className="mt-1 h-5 w-5 shrink-0"
              required
            />
            <label htmlFor="field-agree">I agree that this is a test account: no real payments are made to it or from it.</label>
          </div>
          {errors.agree ? (
            <p id="field-agree-error" className="mt-1 text-sm font-medium text-red-700">
              {errors.agree}
            </p>
          ) : null}
        </div>
        <button type="submit" className={`${primaryButton} w-full sm:w-auto`} disabled={busy}>
          {busy ? "Saving…" : "Agree and continue"}
        </button>
      </Form>
    </SandboxPage>
  );
}
