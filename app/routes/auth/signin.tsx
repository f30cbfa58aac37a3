import { Form, redirect, useNavigation } from "react-router";
import { fieldRefusal } from "#server/platform/errors";
import { safeRedirectPath } from "#server/platform/http/redirects";
import { GENERIC_SIGN_IN_ERROR, type SignInMessage } from "#server/domains/auth/errors";
import { cookieHeaders } from "#server/domains/auth/session";
import { requestPasswordReset, signInWithPassword } from "#server/domains/auth/flows";
import { parseUserType } from "#server/domains/accounts/profiles";
import { Captcha } from "#app/components/Captcha";
import { AuthPage, AuthPageEnd, EmailField, leadFor } from "#app/components/AuthPage";
import { FormNotice, primaryButton, TextField } from "#page-kit/forms";
import { formText, identityDeps, redirectToGoogle } from "#app/lib/identity.server";
import { sendSignedInOnward, signInChoices } from "#app/lib/auth-page.server";
import { readForm } from "#page-kit/form.server";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/signin";
import { answerRefusal } from "#page-kit/respond.server";

// better-auth's OAuth error codes: SPEC §8 gives them no message of their own, so each reads the
// generic one with what to do on the second line.
const OAUTH_ERROR_DETAILS: Record<string, string> = {
  account_not_linked:
    "An account with this email already exists. Sign in with your email and password; Google couldn't confirm the address to join them.",
  unable_to_link_account: "We couldn't connect your Google account. Sign in with your email and password instead.",
  state_mismatch: "Your Google sign-in took too long or was interrupted. Please try again.",
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const { url, redirectTo } = await sendSignedInOnward(request, context);
  const oauthError = url.searchParams.get("error");
  return {
    ...signInChoices(url, context),
    redirectTo,
    oauthError: oauthError ? ({ message: GENERIC_SIGN_IN_ERROR, detail: OAUTH_ERROR_DETAILS[oauthError] } satisfies SignInMessage) : null,
  };
}

type ActionResult = {
  error?: string;
  /** A second line under `error` (a wait, the spam check). */
  errorDetail?: string;
  notice?: string;
  fieldErrors?: { email?: string; password?: string };
  email?: string;
  /** The account has seen several failed sign-ins: the form shows the spam check. */
  captchaRequired?: boolean;
};

export async function action({ request, context }: Route.ActionArgs) {
  const read = await readForm(request);
  if (read.kind === "ERROR") return answerRefusal<ActionResult>(read, { error: read.message });
  const form = read.form;
  const intent = formText(form, "intent");
  const email = formText(form, "email").trim();
  const redirectTo = safeRedirectPath(formText(form, "redirectTo"));
  const deps = identityDeps(context);

  if (intent === "google") return redirectToGoogle(context, request, redirectTo, parseUserType(formText(form, "type")));

  if (intent === "reset") {
    if (!email) return missingFields({ email: "Required" }, email);
    const result = await requestPasswordReset(deps, { email, ip: context.clientIp });
    if (result.kind === "ERROR") return answerRefusal<ActionResult>(result, { error: result.message, email });
    return {
      notice: `If an account exists for ${email}, we've sent it a link to choose a new password. The link works for 1 hour.`,
      email,
    } as ActionResult;
  }

  const password = formText(form, "password");
  if (!email || !password) return missingFields({ email: email ? undefined : "Required", password: password ? undefined : "Required" }, email);
  const result = await signInWithPassword(deps, {
    email,
    password,
    rememberMe: form.get("remember") === "on",
    captcha: formText(form, "captcha"),
    ip: context.clientIp,
    headers: request.headers,
  });
  if (result.kind === "ERROR") {
    const captchaRequired = "captchaRequired" in result && result.captchaRequired === true;
    const errorDetail = "detail" in result ? result.detail : undefined;
    return answerRefusal<ActionResult>(result, { error: result.message, errorDetail, email, captchaRequired });
  }
  if (result.twoFactorRequired) {
    throw redirect(`/signin/two-factor?redirectTo=${encodeURIComponent(redirectTo)}`, { headers: cookieHeaders(result.headers) });
  }
  throw redirect(redirectTo, { headers: cookieHeaders(result.headers) });
}

/** The form again, each empty field marked, before anything is asked of the identity flows. */
function missingFields(fieldErrors: NonNullable<ActionResult["fieldErrors"]>, email: string) {
  return answerRefusal<ActionResult>(fieldRefusal(fieldErrors), { fieldErrors, email });
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "Sign in", description: "Sign in to find sponsors, post opportunities and collect tips.", noindex: true });

export default function SignIn({ loaderData, actionData }: Route.ComponentProps) {
  const { type, redirectTo, googleEnabled, oauthError, captcha } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const error: SignInMessage | null = actionData?.error ? { message: actionData.error, detail: actionData.errorDetail } : oauthError;
  return (
    <AuthPage
      title="Sign in"
      lead={leadFor(type, {
        sponsor: "Welcome, sponsor: post opportunities and reach creators.",
        creator: "Welcome, creator: find sponsors and collect tips.",
        anyone: "Welcome back.",
      })}
    >
      <div className="mt-6 space-y-4">
        {error ? (
          <FormNotice>
            <p>{error.message}</p>
            {error.detail ? <p className="mt-1">{error.detail}</p> : null}
          </FormNotice>
        ) : null}
        {actionData?.notice ? <FormNotice kind="success">{actionData.notice}</FormNotice> : null}
      </div>

      <Form method="post" noValidate className="mt-6 space-y-5">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <EmailField defaultValue={actionData?.email ?? ""} error={actionData?.fieldErrors?.email} />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          aria-required="true"
          error={actionData?.fieldErrors?.password}
        />
        <label className="flex items-center gap-2">
          <input type="checkbox" name="remember" className="h-4 w-4 accent-primary" />
          Remember me
        </label>
        {actionData?.captchaRequired ? <Captcha provider={captcha.provider} siteKey={captcha.siteKey} /> : null}
        <button type="submit" name="intent" value="signin" className={`${primaryButton} w-full`} disabled={busy}>
          Sign In
        </button>
        <p className="text-sm text-muted">
          Forgot your password? Enter your email above, then{" "}
          <button type="submit" name="intent" value="reset" className="font-semibold text-primary underline" disabled={busy}>
            send me a reset link
          </button>
          .
        </p>
      </Form>

      <AuthPageEnd googleEnabled={googleEnabled} redirectTo={redirectTo} type={type} busy={busy} to="/signup" question="New here?" linkText="Create an account" />
    </AuthPage>
  );
}
