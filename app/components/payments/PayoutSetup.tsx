import { Form, Link, useNavigation } from "react-router";
import { FormNotice, primaryButton, TextField } from "#page-kit/forms";

/**
 * The payments setup (SPEC §2.5), shown on /app/payments/setup and, while the
 * person has no complete payout account, on My Payments: the address a
 * notification's /app/payments/setup call-to-action is rewritten to.
 */
export const MY_PAYMENTS_PATH = "/app/account/payments";
export const SETUP_PATH = "/app/payments/setup";

export type PayoutSetupData = {
  state: "none" | "incomplete" | "complete";
  providerName: string;
  email: string;
  accountType: "individual" | "company" | null;
};

export type PayoutSetupErrors = { values?: { accountType: string; email: string }; errors?: { email?: string; accountType?: string }; message?: string };

const TYPES = [
  { value: "individual", label: "Individual", hint: "You are paid as yourself." },
  { value: "company", label: "Company", hint: "You are paid as a registered business." },
] as const;

function RedirectExplanation({ providerName }: { providerName: string }) {
  return (
    <p id="connect-explanation" className="text-sm text-muted">
      You will be sent to {providerName} to confirm who you are and where your payouts go. {providerName} keeps your bank details; we never see
      them. When you finish, {providerName} sends you back here.
    </p>
  );
}

export function PayoutSetup({ setup, action, feedback }: { setup: PayoutSetupData; action: string; feedback?: PayoutSetupErrors }) {
  const busy = useNavigation().formAction === action;
  const connectLabel = `Connect with ${setup.providerName}`;

  if (setup.state === "complete") {
    return (
      <FormNotice kind="success">
        Payouts are on: sponsors can pay you from your bio pages. <Link to={MY_PAYMENTS_PATH}>Go to My Payments</Link>
      </FormNotice>
    );
  }

  if (setup.state === "incomplete") {
    return (
      <div className="space-y-4">
        <FormNotice kind="info">
          Your payout account is not finished yet: {setup.providerName} still needs some details before you can take payments.
        </FormNotice>
        <Form method="post" action={action} className="space-y-3">
          <input type="hidden" name="email" value={setup.email} />
          <input type="hidden" name="accountType" value={setup.accountType ?? "individual"} />
          <RedirectExplanation providerName={setup.providerName} />
          <button type="submit" className={primaryButton} disabled={busy}>
            {busy ? "Connecting..." : `Continue with ${setup.providerName}`}
          </button>
        </Form>
      </div>
    );
  }

  const values = feedback?.values ?? { accountType: "individual", email: setup.email };
  const errors = feedback?.errors ?? {};
  // The answer is a redirect to the provider's onboarding page (another site, for Stripe: the router leaves the app for it).
  return (
    <Form method="post" action={action} noValidate className="space-y-5">
      {feedback?.message ? <FormNotice>{feedback.message}</FormNotice> : null}
      <fieldset aria-describedby={errors.accountType ? "field-accountType-error" : undefined}>
        <legend className="font-medium">Account type</legend>
        <div className="mt-2 grid gap-3 sm:grid-cols-2">
          {TYPES.map((type) => (
            <label key={type.value} className="flex cursor-pointer items-start gap-3 rounded-lg border border-ink/25 p-3 has-[:checked]:border-primary">
              <input type="radio" name="accountType" value={type.value} defaultChecked={values.accountType === type.value} className="mt-1 h-5 w-5 shrink-0" />
              <span>
                <span className="block font-medium">{type.label}</span>
                <span className="block text-sm text-muted">{type.hint}</span>
              </span>
            </label>
          ))}
        </div>
        {errors.accountType ? (
          <p id="field-accountType-error" className="mt-1 text-sm font-medium text-red-700">
            {errors.accountType}
          </p>
        ) : null}
      </fieldset>
      <TextField
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        defaultValue={values.email}
        error={errors.email}
        hint="Where the payment provider writes to you about your payouts."
        maxLength={254}
        required
      />
      <RedirectExplanation providerName={setup.providerName} />
      <button type="submit" className={`${primaryButton} w-full sm:w-auto`} disabled={busy} aria-describedby="connect-explanation">
        {busy ? "Connecting..." : connectLabel}
      </button>
    </Form>
  );
}
