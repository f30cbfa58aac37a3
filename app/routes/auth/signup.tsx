import { Form, Link, redirect, useNavigation } from "react-router";
import { fieldRefusal } from "#server/platform/errors";
import { parseUserType } from "#server/domains/accounts/profiles";
import { signUpWithPassword } from "#server/domains/auth/flows";
import { passwordPolicyFrom } from "#server/domains/auth/password-policy";
import { safeRedirectPath } from "#server/platform/http/redirects";
import { cookieHeaders } from "#server/domains/auth/session";
import { Captcha } from "#app/components/Captcha";
import { SignupRole } from "#app/components/SignupRole";
import { AuthPage, AuthPageEnd, EmailField, leadFor } from "#app/components/AuthPage";
import { PageNotice, primaryButton, TextField } from "#page-kit/forms";
import { PasswordRules } from "#app/components/PasswordRules";
import { formText, identityDeps, redirectToGoogle } from "#app/lib/identity.server";
import { sendSignedInOnward, signInChoices } from "#app/lib/auth-page.server";
import { readForm } from "#page-kit/form.server";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/signup";
import { answerRefusal } from "#page-kit/respond.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { url, redirectTo } = await sendSignedInOnward(request, context);
  return { ...signInChoices(url, context), redirectTo, policy: passwordPolicyFrom(context.config) };
}

type FieldErrors = Partial<Record<"name" | "email" | "password" | "captcha", string>>;
type ActionResult = { error?: string; code?: string; fieldErrors?: FieldErrors; values?: { name: string; email: string } };

export async function action({ request, context }: Route.ActionArgs) {
  const read = await readForm(request);
  if (read.kind === "ERROR") return answerRefusal<ActionResult>(read, { error: read.message });
  const form = read.form;
  const redirectTo = safeRedirectPath(formText(form, "redirectTo"));
  if (formText(form, "intent") === "google") return redirectToGoogle(context, request, redirectTo, parseUserType(formText(form, "type")));
  const values = { name: formText(form, "name").trim(), email: formText(form, "email").trim() };
  const password = formText(form, "password");
  const fieldErrors: FieldErrors = {};
  if (!values.email) fieldErrors.email = "Required";
  if (!password) fieldErrors.password = "Required";
  if ([...values.name].length >= 100) fieldErrors.name = "Must be under 100 characters";
  if (Object.keys(fieldErrors).length > 0) return answerRefusal<ActionResult>(fieldRefusal(fieldErrors), { fieldErrors, values });

  const result = await signUpWithPassword(identityDeps(context), {
    ...values,
    password,
    type: parseUserType(formText(form, "type")),
    captcha: formText(form, "captcha"),
    ip: context.clientIp,
    headers: request.headers,
  });
  if (result.kind === "ERROR") {
    const onField = result.field && result.field !== "email" && result.reason !== "email-already-in-use";
    return answerRefusal<ActionResult>(result, {
      code: result.reason,
      error: onField ? undefined : result.message,
      fieldErrors: onField ? { [result.field!]: result.message } : undefined,
      values,
    });
  }
  // New accounts verify their email first; the guard sends them on afterwards.
  throw redirect("/app/verify", { headers: cookieHeaders(result.headers) });
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "Sign up", description: "Create your free account: find sponsors, post opportunities and collect tips.", noindex: true });

export default function SignUp({ loaderData, actionData }: Route.ComponentProps) {
  const { type, redirectTo, policy, captcha, googleEnabled } = loaderData;
  const busy = useNavigation().state !== "idle";
  const policyRefetches = actionData?.code === "password-does-not-meet-requirements" ? 1 : 0;
  return (
    <AuthPage
      title="Create your account"
      lead={leadFor(type, {
        sponsor: "Post opportunities and reach creators looking for sponsors.",
        creator: "Find sponsors, save opportunities and collect tips on your own bio page.",
        anyone: "Free for creators and sponsors.",
      })}
    >
      <SignupRole type={type} redirectTo={redirectTo} />
      <PageNotice>{actionData?.error}</PageNotice>

      <Form method="post" noValidate className="mt-6 space-y-5">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <input type="hidden" name="type" value={type ?? ""} />
        <TextField
          label="Name (shown on your profile)"
          name="name"
          autoComplete="name"
          defaultValue={actionData?.values?.name ?? ""}
          error={actionData?.fieldErrors?.name}
        />
        <EmailField defaultValue={actionData?.values?.email ?? ""} error={actionData?.fieldErrors?.email} />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          aria-required="true"
          error={actionData?.fieldErrors?.password}
          hint={<PasswordRules policy={policy} refetchKey={policyRefetches} />}
        />
        <div>
          <Captcha provider={captcha.provider} siteKey={captcha.siteKey} />
          {actionData?.fieldErrors?.captcha ? (
            <p className="mt-1 text-sm font-medium text-red-700" role="alert">
              {actionData.fieldErrors.captcha}
            </p>
          ) : null}
        </div>
        <button type="submit" name="intent" value="signup" className={`${primaryButton} w-full`} disabled={busy}>
          Create account
        </button>
        <p className="text-sm text-muted">
          By creating an account you agree to the <Link to="/legal/terms-of-service">Terms of Use</Link> and the{" "}
          <Link to="/support/code-of-conduct">Code of Conduct</Link>.
        </p>
      </Form>

      <AuthPageEnd googleEnabled={googleEnabled} redirectTo={redirectTo} type={type} busy={busy} to="/signin" question="Already have an account?" linkText="Sign in" />
    </AuthPage>
  );
}
