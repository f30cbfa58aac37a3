import { Form, Link, redirect, useNavigation } from "react-router";
import { safeRedirectPath } from "#server/platform/http/redirects";
import { cookieHeaders } from "#server/domains/auth/session";
import { completeTwoFactorSignIn, pendingSignIn } from "#server/domains/auth/two-factor";
import { PageNotice, primaryButton, TextField } from "#page-kit/forms";
import { formText } from "#app/lib/identity.server";
import { sendSignedInOnward } from "#app/lib/auth-page.server";
import { AuthPage } from "#app/components/AuthPage";
import { OneTimeCodeField } from "#app/components/two-factor/OneTimeCodeField";
import { readForm } from "#page-kit/form.server";
import { pageMeta } from "#page-kit/meta";
import { answerRefusal } from "#page-kit/respond.server";
import type { Route } from "./+types/two-factor";

/** The second step of a sign-in with two-factor: the password was right, the code is next (ADR 0049). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { url, redirectTo } = await sendSignedInOnward(request, context);
  // No password step in this browser (or it expired): back to the start, keeping where to go.
  if (!(await pendingSignIn(context, request.headers))) throw redirect(`/signin?redirectTo=${encodeURIComponent(redirectTo)}`);
  return { redirectTo, method: url.searchParams.get("method") === "recovery" ? ("recovery" as const) : ("app" as const) };
}

type ActionResult = { error?: string; fieldError?: string; expired?: boolean };

export async function action({ request, context }: Route.ActionArgs) {
  const read = await readForm(request);
  if (read.kind === "ERROR") return answerRefusal<ActionResult>(read, { error: read.message });
  const form = read.form;
  const redirectTo = safeRedirectPath(formText(form, "redirectTo"));
  const result = await completeTwoFactorSignIn(context, {
    code: formText(form, "code"),
    method: formText(form, "method") === "recovery" ? "recovery" : "app",
    ip: context.clientIp,
    headers: request.headers,
  });
  if (result.kind === "ERROR") {
    const fieldError = "fieldErrors" in result ? (result.fieldErrors as { code?: string }).code : undefined;
    const expired = "reason" in result && result.reason === "CHALLENGE_EXPIRED";
    return answerRefusal<ActionResult>(result, { error: fieldError ? undefined : result.message, fieldError, expired });
  }
  throw redirect(redirectTo, { headers: cookieHeaders(result.headers) });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Two-factor sign-in", noindex: true });

export default function TwoFactorSignIn({ loaderData, actionData }: Route.ComponentProps) {
  const { redirectTo, method } = loaderData;
  const busy = useNavigation().state !== "idle";
  const recovery = method === "recovery";
  const switchTo = `/signin/two-factor?redirectTo=${encodeURIComponent(redirectTo)}${recovery ? "" : "&method=recovery"}`;
  return (
    <AuthPage
      title="Two-factor sign-in"
      lead={
        recovery
          ? "Enter one of the recovery codes you saved when you turned on two-factor sign-in. Each code works once."
          : "Open your authenticator app and enter the 6-digit code it shows for this site."
      }
    >
      <PageNotice>
        {actionData?.error ? (
          <>
            <p>{actionData.error}</p>
            {actionData.expired ? (
              <p className="mt-1">
                <Link to={`/signin?redirectTo=${encodeURIComponent(redirectTo)}`}>Sign in again</Link>
              </p>
            ) : null}
          </>
        ) : null}
      </PageNotice>
      <Form method="post" noValidate className="mt-6 space-y-5">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <input type="hidden" name="method" value={method} />
        {recovery ? (
          <TextField label="Recovery code" name="code" autoComplete="off" autoCapitalize="off" spellCheck={false} aria-required="true" error={actionData?.fieldError} />
        ) : (
          <OneTimeCodeField error={actionData?.fieldError} />
        )}
        <button type="submit" className={`${primaryButton} w-full`} disabled={busy}>
          Verify
        </button>
      </Form>
      <p className="mt-6 text-center">
        <Link to={switchTo}>{recovery ? "Use the code from your authenticator app" : "Use a recovery code"}</Link>
      </p>
    </AuthPage>
  );
}
