import { Form, useNavigation } from "react-router";
import { FormNotice, TextField } from "#page-kit/forms";

export type DeleteAccountState = { error?: string; field?: "password" | "email" };

/**
 * My Account's "Delete Account" (SPEC §7.4 accounts:delete; ADR 0031). The confirmation opens in
 * place (a <details>, so it works without JavaScript), asks again who this is — the current
 * password, or the email typed out for an account that signs in only with Google — and deletes
 * only on its own button.
 */
export function DeleteAccount({ proof, providerName, state }: { proof: "password" | "email"; providerName: string; state?: DeleteAccountState }) {
  const deleting = useNavigation().formData?.get("intent") === "delete-account";
  return (
    <div className="space-y-3">
      <p>
        Deleting your account removes your profile, bio pages, opportunity posts, hearts, notifications and sign-in for good. Your
        payout account and any Pro subscription are closed at {providerName} first. Records of payments you made or received are
        kept for accounting, without your name, email or messages.
      </p>
      <details open={Boolean(state?.error)} className="rounded-lg border border-red-700/30 p-4">
        <summary className="cursor-pointer font-semibold text-red-800">Delete my account</summary>
        <Form method="post" noValidate className="mt-4 space-y-4">
          <p className="font-semibold">Are you sure? This can't be undone.</p>
          {state?.error && !state.field ? <FormNotice>{state.error}</FormNotice> : null}
          {proof === "password" ? (
            <TextField
              label="Current password"
              name="password"
              type="password"
              autoComplete="current-password"
              aria-required="true"
              error={state?.field === "password" ? state.error : undefined}
            />
          ) : (
            <TextField
              label="Type your email address to confirm"
              name="email"
              type="email"
              autoComplete="off"
              aria-required="true"
              error={state?.field === "email" ? state.error : undefined}
            />
          )}
          <button
            type="submit"
            name="intent"
            value="delete-account"
            className="inline-flex items-center justify-center rounded-full bg-red-700 px-6 py-3 font-semibold text-white hover:bg-red-800 disabled:opacity-60"
            disabled={deleting}
          >
            {deleting ? "Deleting..." : "Yes, delete my account"}
          </button>
        </Form>
      </details>
    </div>
  );
}
