import { data, Form, Link, redirect, useNavigation } from "react-router";
import { cookieHeaders, requireVerifiedUser } from "#server/domains/auth/session";
import {
  confirmTwoFactorEnrolment,
  newRecoveryCodes,
  startTwoFactorEnrolment,
  turnOffTwoFactor,
  twoFactorStanding,
  type Enrolment,
} from "#server/domains/auth/two-factor";
import { qrSvg } from "#server/domains/bio/qr";
import { domainError } from "#server/platform/errors";
import { safeRedirectPath } from "#server/platform/http/redirects";
import { toastCookie } from "#server/platform/http/toast-cookie";
import { OneTimeCodeField } from "#app/components/two-factor/OneTimeCodeField";
import { RecoveryCodes } from "#app/components/two-factor/RecoveryCodes";
import { TypedKey } from "#app/components/two-factor/TypedKey";
import { formText } from "#app/lib/identity.server";
import { FormNotice, PageNotice, primaryButton, secondaryButton, TextField } from "#page-kit/forms";
import { pageMeta } from "#page-kit/meta";
import { answerRefusal } from "#page-kit/respond.server";
import { readAccountSectionForm } from "#app/lib/account-section.server";
import type { Route } from "./+types/two-factor";

const HERE = "/app/account/two-factor";

/** Where to go once done: `next` (the back office sends staff here with it), else My Account. */
function nextOf(value: string | null): string {
  return safeRedirectPath(value, "/app/account");
}

/** The QR code as an image the page shows (an SVG, in a data address: no second request). */
async function shown(enrolment: Enrolment) {
  const svg = await qrSvg(enrolment.uri);
  return { ...enrolment, qr: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}` };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const standing = await twoFactorStanding(context, user.id);
  return {
    appName: context.config.APP_NAME,
    next: nextOf(new URL(request.url).searchParams.get("next")),
    enabled: standing.enabled,
    hasPassword: standing.hasPassword,
    recoveryCodesLeft: standing.recoveryCodesLeft,
    pending: standing.pending ? await shown(standing.pending) : null,
  };
}

type ActionResult = {
  intent?: string;
  error?: string;
  passwordError?: string;
  codeError?: string;
  enrolment?: Awaited<ReturnType<typeof shown>>;
  recoveryCodes?: string[];
};

export async function action({ request, context }: Route.ActionArgs) {
  const post = await readAccountSectionForm<ActionResult>(request, context);
  if (post.refused) return post.refused;
  const { user, form, intent } = post;
  const password = formText(form, "password");
  const fieldOf = (result: object, name: "password" | "code") =>
    "fieldErrors" in result ? (result.fieldErrors as Record<string, string | undefined>)[name] : undefined;

  if (intent === "start") {
    const result = await startTwoFactorEnrolment(context, { userId: user.id, password, headers: request.headers });
    if (result.kind === "ERROR") return answerRefusal<ActionResult>(result, { intent, passwordError: fieldOf(result, "password"), error: fieldOf(result, "password") ? undefined : result.message });
    return { intent, enrolment: await shown(result) } as ActionResult;
  }
  if (intent === "confirm") {
    const result = await confirmTwoFactorEnrolment(context, { userId: user.id, code: formText(form, "code"), headers: request.headers });
    if (result.kind === "ERROR") return answerRefusal<ActionResult>(result, { intent, codeError: fieldOf(result, "code"), error: fieldOf(result, "code") ? undefined : result.message });
    // better-auth replaced the session when two-factor came on: the new cookie goes with the codes.
    return data({ intent, recoveryCodes: result.recoveryCodes } as ActionResult, { headers: cookieHeaders(result.headers) });
  }
  if (intent === "regenerate") {
    const result = await newRecoveryCodes(context, { password, headers: request.headers });
    if (result.kind === "ERROR") return answerRefusal<ActionResult>(result, { intent, passwordError: fieldOf(result, "password"), error: fieldOf(result, "password") ? undefined : result.message });
    return { intent, recoveryCodes: result.recoveryCodes } as ActionResult;
  }
  if (intent === "off") {
    const result = await turnOffTwoFactor(context, { password, headers: request.headers });
    if (result.kind === "ERROR") return answerRefusal<ActionResult>(result, { intent, passwordError: fieldOf(result, "password"), error: fieldOf(result, "password") ? undefined : result.message });
    const headers = cookieHeaders(result.headers);
    headers.append("Set-Cookie", await toastCookie(request, context.sessionSecret, { kind: "success", message: "Two-factor sign-in is off." }));
    throw redirect(HERE, { headers });
  }
  const unknown = domainError("invalid-argument", "Unknown action.");
  return answerRefusal<ActionResult>(unknown, { error: unknown.message });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Two-factor sign-in", noindex: true });

function PasswordForm({ intent, label, error, danger = false, hasPassword }: { intent: string; label: string; error?: string; danger?: boolean; hasPassword: boolean }) {
  const busy = useNavigation().formData?.get("intent") === intent;
  return (
    <Form method="post" noValidate className="mt-4 space-y-3">
      {hasPassword ? (
        <TextField label="Your password" name="password" type="password" autoComplete="current-password" aria-required="true" error={error} id={`${intent}-password`} />
      ) : error ? (
        <FormNotice>{error}</FormNotice>
      ) : null}
      <button type="submit" name="intent" value={intent} className={danger ? secondaryButton : primaryButton} disabled={busy}>
        {label}
      </button>
    </Form>
  );
}

export default function TwoFactorSetup({ loaderData, actionData }: Route.ComponentProps) {
  const { appName, next, enabled, recoveryCodesLeft, hasPassword } = loaderData;
  const enrolment = actionData?.enrolment ?? loaderData.pending;
  const passwordError = (intent: string) => (actionData?.intent === intent ? actionData.passwordError : undefined);
  const confirming = useNavigation().formData?.get("intent") === "confirm";

  if (actionData?.recoveryCodes) {
    const justEnrolled = actionData.intent === "confirm";
    return (
      <div className="mx-auto max-w-2xl px-4 py-10 sm:py-14">
        <h1 className="text-3xl font-bold">{justEnrolled ? "Two-factor sign-in is on" : "Your new recovery codes"}</h1>
        <p className="mt-3">
          Save these recovery codes somewhere safe, away from your phone. If you lose your authenticator app, each code signs you in once. They are shown only
          now{justEnrolled ? "" : "; the old codes no longer work"}.
        </p>
        <div className="mt-5">
          <RecoveryCodes codes={actionData.recoveryCodes} appName={appName} />
        </div>
        <p className="mt-8">
          <Link to={next} className={`${primaryButton} no-underline`}>
            I have saved my codes, continue
          </Link>
        </p>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-2xl px-4 py-10 sm:py-14">
      <p>
        <Link to="/app/account">My Account</Link>
      </p>
      <h1 className="mt-2 text-3xl font-bold">Two-factor sign-in</h1>
      <p className="mt-3 text-muted">
        With two-factor sign-in, signing in asks for your password and a 6-digit code from an authenticator app on your phone (such as Google Authenticator,
        Microsoft Authenticator, 1Password or Aegis). Someone who learns your password still cannot sign in.
      </p>
      <PageNotice>{actionData?.error}</PageNotice>

      {enabled ? (
        <>
          <FormNotice kind="success">Two-factor sign-in is on.</FormNotice>
          <section aria-labelledby="recovery-heading" className="mt-8">
            <h2 id="recovery-heading" className="text-xl font-bold">
              Recovery codes
            </h2>
            <p className="mt-2">
              {recoveryCodesLeft === null ? "" : `${recoveryCodesLeft} unused recovery ${recoveryCodesLeft === 1 ? "code" : "codes"} left. `}
              New codes replace all the old ones.
            </p>
            <PasswordForm intent="regenerate" label="Get new recovery codes" error={passwordError("regenerate")} hasPassword={hasPassword} />
          </section>
          <section aria-labelledby="off-heading" className="mt-10">
            <h2 id="off-heading" className="text-xl font-bold">
              Turn off two-factor sign-in
            </h2>
            <p className="mt-2">Signing in will ask for your password only. Staff cannot open the back office without it.</p>
            <PasswordForm intent="off" label="Turn off two-factor sign-in" error={passwordError("off")} danger hasPassword={hasPassword} />
          </section>
        </>
      ) : enrolment ? (
        <section aria-labelledby="scan-heading" className="mt-8">
          <h2 id="scan-heading" className="text-xl font-bold">
            1. Add {appName} to your authenticator app
          </h2>
          <p className="mt-2">Scan this QR code with the app, or type the key below into it.</p>
          <img src={enrolment.qr} alt={`QR code to add ${appName} to your authenticator app`} width={220} height={220} className="mt-4 rounded-lg border border-ink/15" />
          <p className="mt-4 text-sm text-muted" id="secret-label">
            Key for typing in (time-based)
          </p>
          <TypedKey secret={enrolment.secret} labelId="secret-label" />
          <h2 className="mt-8 text-xl font-bold">2. Enter the code the app shows</h2>
          <Form method="post" noValidate className="mt-4 space-y-3">
            <OneTimeCodeField error={actionData?.intent === "confirm" ? actionData.codeError : undefined} />
            <button type="submit" name="intent" value="confirm" className={primaryButton} disabled={confirming}>
              Turn on two-factor sign-in
            </button>
          </Form>
        </section>
      ) : (
        <section aria-labelledby="start-heading" className="mt-8">
          <h2 id="start-heading" className="text-xl font-bold">
            Set up an authenticator app
          </h2>
          <p className="mt-2">{hasPassword ? "Enter your password to get the QR code for your app." : "Get the QR code for your app."}</p>
          <PasswordForm intent="start" label="Set up two-factor sign-in" error={passwordError("start")} hasPassword={hasPassword} />
        </section>
      )}
    </div>
  );
}
