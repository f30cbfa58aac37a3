import { Form, Link, useNavigation } from "react-router";
import { fieldRefusal } from "#server/platform/errors";
import { resetPassword } from "#server/domains/auth/flows";
import { passwordPolicyFrom } from "#server/domains/auth/password-policy";
import { PageNotice, primaryButton, TextField } from "#page-kit/forms";
import { AuthPage } from "#app/components/AuthPage";
import { PasswordRules } from "#app/components/PasswordRules";
import { formText, identityDeps } from "#app/lib/identity.server";
import { pageMeta } from "#page-kit/meta";
import { readForm } from "#page-kit/form.server";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import type { Route } from "./+types/reset-password";
import { answerRefusal } from "#page-kit/respond.server";

export function loader({ request, context }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams;
  const token = query.get("token") ?? "";
  return { token, afterVerification: query.get("verified") === "1", policy: passwordPolicyFrom(context.config) };
}

type ActionResult = { error?: string; code?: string; fieldErrors?: { password?: string; confirm?: string } };

export async function action({ request, context }: Route.ActionArgs) {
  const read = await readForm(request);
  if (read.kind === "ERROR") return answerRefusal<ActionResult>(read, { error: read.message });
  const form = read.form;
  const password = formText(form, "password");
  const confirm = formText(form, "confirm");
  const fieldErrors: NonNullable<ActionResult["fieldErrors"]> = {};
  if (!password) fieldErrors.password = "Required";
  if (!confirm) fieldErrors.confirm = "Required";
  else if (password && confirm !== password) fieldErrors.confirm = "The passwords don't match.";
  if (Object.keys(fieldErrors).length > 0) return answerRefusal<ActionResult>(fieldRefusal(fieldErrors), { fieldErrors });

  const afterVerification = formText(form, "verified") === "1";
  const result = await resetPassword(identityDeps(context), { token: formText(form, "token"), password });
  if (result.kind === "ERROR") {
    return answerRefusal<ActionResult>(
      result,
      result.field === "password" ? { code: result.reason, fieldErrors: { password: result.message } } : { code: result.reason, error: result.message },
    );
  }
  return redirectWithToast(request, context.sessionSecret, "/signin", {
    kind: "success",
    message: afterVerification
      ? "Your password is set. Sign in with your email and new password."
      : "Your password has been changed. Sign in with your new password.",
  });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Choose a new password", noindex: true });

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state !== "idle";
  if (!loaderData.token) {
    return (
      <AuthPage title="Choose a new password">
        <PageNotice>
          This reset link is incomplete. Open the link from your email again, or <Link to="/signin">request a new one</Link>.
        </PageNotice>
      </AuthPage>
    );
  }
  return (
    <AuthPage
      title="Choose a new password"
      lead={loaderData.afterVerification ? null : "After the change, you'll be signed out everywhere and can sign in with the new password."}
    >
      {loaderData.afterVerification ? (
        <PageNotice kind="success">
          Your email address is verified. This browser wasn't signed in to the account, so to keep it yours, choose a new
          password: any password set before the address was verified no longer works.
        </PageNotice>
      ) : null}
      <PageNotice>
        {actionData?.error ? (
          <>
            {actionData.error} <Link to="/signin">Go to sign in</Link>
          </>
        ) : null}
      </PageNotice>
      <Form method="post" noValidate className="mt-6 space-y-5">
        <input type="hidden" name="token" value={loaderData.token} />
        {loaderData.afterVerification ? <input type="hidden" name="verified" value="1" /> : null}
        <TextField
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          aria-required="true"
          error={actionData?.fieldErrors?.password}
          hint={<PasswordRules policy={loaderData.policy} refetchKey={actionData?.code === "password-does-not-meet-requirements" ? 1 : 0} />}
        />
        <TextField
          label="Confirm new password"
          name="confirm"
          type="password"
          autoComplete="new-password"
          aria-required="true"
          error={actionData?.fieldErrors?.confirm}
        />
        <button type="submit" className={`${primaryButton} w-full`} disabled={busy}>
          Change password
        </button>
      </Form>
    </AuthPage>
  );
}
