import { useEffect, useRef } from "react";
import { Form, Link, redirect, useNavigation, useSubmit } from "react-router";
import { resendVerificationEmail, verifyEmailCode } from "#server/domains/auth/flows";
import { cookieHeaders, getSessionUser, requireUser } from "#server/domains/auth/session";
import { choosePasswordPath } from "#server/platform/http/redirects";
import { FormNotice, primaryButton, secondaryButton } from "#page-kit/forms";
import { formText, identityDeps } from "#app/lib/identity.server";
import { pageMeta } from "#page-kit/meta";
import { readForm } from "#page-kit/form.server";
import { toastCookie } from "#server/platform/http/toast-cookie";
import { firstRunPath } from "#server/features/first-run/first-run";
import type { Route } from "./+types/verify";
import { answerRefusal } from "#page-kit/respond.server";

// SPEC §2.5, word for word.
export const VERIFY_MESSAGES = {
  sent: "We sent an email to verify your email address. Please follow the link provided in the email to continue.",
  invalid: "The link you followed from your email is invalid. Please try sending another verification email.",
  verifying: "Verifying your email address....",
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const code = new URL(request.url).searchParams.get("oobCode");
  const user = await getSessionUser(request, context);
  if (code) return { mode: "verifying" as const, code, signedIn: Boolean(user) };
  if (!user) await requireUser(request, context);
  if (user?.emailVerified) throw redirect("/app");
  return { mode: "pending" as const, code: null, signedIn: true, email: user?.email };
}

type ActionResult = { invalid?: boolean; notice?: string; error?: string };

export async function action({ request, context }: Route.ActionArgs) {
  const read = await readForm(request);
  if (read.kind === "ERROR") return answerRefusal<ActionResult>(read, { error: read.message });
  const form = read.form;
  const intent = formText(form, "intent");
  const deps = identityDeps(context);

  if (intent === "verify") {
    // Who was signed in here before the link was opened: their first run follows the verification.
    const before = await getSessionUser(request, context);
    const result = await verifyEmailCode(deps, { code: formText(form, "oobCode"), headers: request.headers });
    if (result.kind === "ERROR") return answerRefusal<ActionResult>(result, { invalid: true });
    // Opened where nobody was signed in to the account: the owner chooses the password now.
    if ("choosePasswordToken" in result) throw redirect(choosePasswordPath(result.choosePasswordToken));
    const headers = cookieHeaders(result.headers);
    headers.append(
      "Set-Cookie",
      await toastCookie(request, context.sessionSecret, { kind: "success", message: "Thanks! Your email address is verified." }),
    );
    throw redirect(before ? await firstRunPath(context.db, before.id) : "/app", { headers });
  }

  const user = await requireUser(request, context);
  if (user.emailVerified) throw redirect("/app");
  if (intent === "resend") {
    const result = await resendVerificationEmail(deps, { email: user.email, ip: context.clientIp });
    if (result.kind === "ERROR") return answerRefusal<ActionResult>(result, { error: result.message });
    return { notice: `We sent a new verification email to ${user.email}.` } as ActionResult;
  }
  // Continue: still unverified (a verified person was sent on above).
  return {
    notice: "Your email address isn't verified yet. Follow the link in the email we sent, then choose Continue.",
  } as ActionResult;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Verify email address", noindex: true });

function AutoVerify({ code }: { code: string }) {
  const submit = useSubmit();
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    submit({ intent: "verify", oobCode: code }, { method: "post", replace: true });
  }, [code, submit]);
  return null;
}

export default function VerifyEmail({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state !== "idle";
  const invalid = actionData?.invalid === true;

  if (loaderData.mode === "verifying" && !invalid) {
    return (
      <Shell>
        <FormNotice kind="info">{VERIFY_MESSAGES.verifying}</FormNotice>
        <AutoVerify code={loaderData.code} />
        <noscript>
          <Form method="post" className="mt-6">
            <input type="hidden" name="oobCode" value={loaderData.code} />
            <button type="submit" name="intent" value="verify" className={primaryButton}>
              Verify my email address
            </button>
          </Form>
        </noscript>
      </Shell>
    );
  }

  return (
    <Shell>
      <FormNotice kind={invalid ? "error" : "info"}>{invalid ? VERIFY_MESSAGES.invalid : VERIFY_MESSAGES.sent}</FormNotice>
      {loaderData.mode === "pending" && loaderData.email ? (
        <p className="mt-4 text-muted">
          Signed in as <strong className="text-ink">{loaderData.email}</strong>. Check your spam folder if the email hasn't
          arrived after a few minutes.
        </p>
      ) : null}
      {actionData?.notice ? (
        <div className="mt-4">
          <FormNotice kind="success">{actionData.notice}</FormNotice>
        </div>
      ) : null}
      {actionData?.error ? (
        <div className="mt-4">
          <FormNotice>{actionData.error}</FormNotice>
        </div>
      ) : null}
      {loaderData.signedIn ? (
        <Form method="post" className="mt-6 flex flex-wrap gap-3">
          <button type="submit" name="intent" value="continue" className={primaryButton} disabled={busy}>
            Continue
          </button>
          <button type="submit" name="intent" value="resend" className={secondaryButton} disabled={busy}>
            Resend
          </button>
        </Form>
      ) : (
        <p className="mt-6">
          <Link to="/signin?redirectTo=%2Fapp%2Fverify">Sign in</Link> to send another verification email.
        </p>
      )}
    </Shell>
  );
}

function Shell({ children }: { children: React.ReactNode }) {
  return (
    <div className="mx-auto max-w-lg px-4 py-12 sm:py-16">
      <h1 className="mb-6 text-3xl font-bold">Verify your email address</h1>
      {children}
    </div>
  );
}
