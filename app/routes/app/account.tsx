import { Form, Link, redirect, useNavigation } from "react-router";
import { accountTypeOf, getProfile, saveProfileName } from "#server/domains/accounts/profiles";
import { deleteAccount, deletionProofKind } from "#server/features/account-deletion/deletion";
import { cookieHeaders } from "#server/domains/auth/session";
import { signOut } from "#server/domains/auth/flows";
import { requestPasswordReset } from "#server/domains/auth/flows";
import { DeleteAccount, type DeleteAccountState } from "#app/components/DeleteAccount";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { payoutAccountOf } from "#server/domains/payments/records/payments-overview";
import { findBillingCustomer } from "#server/domains/pro/customers";
import { PRO_PLANS } from "#isomorphic/pro-plans";
import { getProStatus } from "#server/domains/pro/pro-status";
import { NOTIFICATION_CATALOGUE, NOTIFICATION_KINDS, PREFERENCE_ORDER } from "#server/domains/notifications/kinds";
import { mailPreferencesOf, saveMailPreferences, type MailPreferences } from "#server/domains/notifications/preferences";
import { NotificationPreferences } from "#app/components/notifications/NotificationPreferences";
import { PageNotice, primaryButton, TextField } from "#page-kit/forms";
import { ResetPasswordPill } from "#app/components/ResetPasswordPill";
import { PhotoUpload } from "#app/components/PhotoUpload";
import { profilePhotoOf } from "#server/domains/media/photos";
import { formText, identityDeps } from "#app/lib/identity.server";
import { pageMeta } from "#page-kit/meta";
import { redirectWithToast, toastCookie } from "#server/platform/http/toast-cookie";
import { readAccountSectionForm } from "#app/lib/account-section.server";
import type { Route } from "./+types/account";
import { answerRefusal } from "#page-kit/respond.server";
import { domainError } from "#server/platform/errors";
import { hasTwoFactor } from "#server/domains/auth/two-factor";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const [profile, accountType, payout, pro, customerId, mail, deletionProof, photoId, twoFactorOn] = await Promise.all([
    getProfile(context.db, user.id),
    accountTypeOf(context.db, user.id),
    payoutAccountOf(context.db, user.id),
    getProStatus(context.db, user.id),
    findBillingCustomer(context.db, user.id),
    mailPreferencesOf(context.db, user.id),
    deletionProofKind(context.db, user.id),
    profilePhotoOf(context.db, user.id),
    hasTwoFactor(context.db, user.id),
  ]);
  return {
    user: { id: user.id, email: user.email, name: user.name },
    profileName: profile?.name ?? "",
    photoId,
    accountType,
    payoutState: payout.state,
    providerName: context.payments.displayName,
    proLine: proLine(pro, accountType),
    hasBillingCustomer: customerId !== null,
    deletionProof,
    twoFactorOn,
    notificationRows: PREFERENCE_ORDER.map((kind) => ({ kind, ...NOTIFICATION_CATALOGUE[kind], mail: mail[kind] })),
  };
}

const dayText = (date: Date) => new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(date);

/** The small Pro status line under the heading. A sponsor without Pro is not nudged towards a directory of sponsors. */
function proLine(pro: Awaited<ReturnType<typeof getProStatus>>, accountType: Awaited<ReturnType<typeof accountTypeOf>>): string {
  if (!pro.isPro || !pro.plan) return accountType === "sponsor" ? "Not a Pro member: Pro is made for creators looking for sponsors." : "Not a Pro member yet.";
  const plan = PRO_PLANS[pro.plan].name;
  if (pro.plan === "limitless") {
    // A subscription still billing beside Limitless is said here too, never hidden behind "never expires".
    const billing = pro.stillBilling;
    if (!billing) return `Pro: ${plan}, never expires.`;
    const sub = PRO_PLANS[billing.plan].name;
    const until = dayText(billing.periodEnd);
    return billing.renews
      ? `Pro: ${plan}, never expires. Your ${sub} subscription still renews on ${until}: cancel it in the Pro Portal.`
      : `Pro: ${plan}, never expires. Your ${sub} subscription ends on ${until} and will not renew.`;
  }
  const end = pro.currentPeriodEnd ? dayText(pro.currentPeriodEnd) : "";
  if (pro.renewalFailed) return `Pro: ${plan}. The renewal payment failed: update your card in the Pro Portal.`;
  return pro.cancelAtPeriodEnd ? `Pro: ${plan}, until ${end}.` : `Pro: ${plan}, renews on ${end}.`;
}

type ActionResult = { profileError?: string; resetSent?: boolean; error?: string; deletion?: DeleteAccountState };

export async function action({ request, context }: Route.ActionArgs) {
  const post = await readAccountSectionForm<ActionResult>(request, context);
  if (post.refused) return post.refused;
  const { user, form, intent } = post;
  if (intent === "profile") {
    const result = await saveProfileName(context.db, user.id, formText(form, "profileName"));
    if (result.kind === "ERROR") return answerRefusal<ActionResult>(result, { profileError: result.message });
    return redirectWithToast(request, context.sessionSecret, "/app/account", { kind: "success", message: "Profile saved." });
  }
  if (intent === "notification-preferences") {
    // Checked boxes are the kinds to email; every kind not sent is off (an unchecked box sends nothing).
    const chosen = new Set(form.getAll("mail").map(String));
    await saveMailPreferences(context.db, user.id, Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, chosen.has(kind)])) as MailPreferences);
    return redirectWithToast(request, context.sessionSecret, "/app/account#notifications", { kind: "success", message: "Email preferences saved." });
  }
  if (intent === "reset-password") {
    const result = await requestPasswordReset(identityDeps(context), { email: user.email, ip: context.clientIp });
    if (result.kind === "ERROR") return answerRefusal<ActionResult>(result, { error: result.message });
    return { resetSent: true } as ActionResult;
  }
  if (intent === "delete-account") {
    const proof = form.has("password") ? { password: formText(form, "password") } : { email: formText(form, "email") };
    const result = await deleteAccount({ db: context.db, auth: context.auth, payments: context.payments }, user.id, proof);
    if (result.kind === "ERROR") return answerRefusal<ActionResult>(result, { deletion: { error: result.message, field: result.field } });
    // The sessions are gone with the account; this clears the browser's cookie too.
    const headers = cookieHeaders(await signOut(identityDeps(context), request.headers));
    headers.append("Set-Cookie", await toastCookie(request, context.sessionSecret, { kind: "success", message: "Your account has been deleted." }));
    throw redirect("/", { headers });
  }
  const unknown = domainError("invalid-argument", "Unknown action.");
  return answerRefusal<ActionResult>(unknown, { error: unknown.message });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "My Account" });

const TYPE_LABELS = { creator: "Creator", sponsor: "Sponsor" } as const;

function Section({ title, children, anchor, className = "" }: { title: string; children: React.ReactNode; anchor?: string; className?: string }) {
  const id = `section-${title.toLowerCase().replace(/\W+/g, "-")}`;
  return (
    <section id={anchor} aria-labelledby={id} className={`rounded-2xl border border-primary/15 p-6 shadow-sm ${className}`}>
      <h2 id={id} className="text-xl font-bold">
        {title}
      </h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** SPEC §2.5 My Account: what tips need, and the next step for where the person stands. */
function CollectTips({ state, providerName }: { state: "none" | "incomplete" | "complete"; providerName: string }) {
  return (
    <>
      <p>
        Fans and sponsors can tip you, or pay for a sponsorship, by card from your bio page. The money goes to your own payout account at{" "}
        {providerName}.
      </p>
      {state === "complete" ? (
        <p className="mt-3 font-medium">Payouts are on: your bio pages take payments.</p>
      ) : state === "incomplete" ? (
        <p className="mt-3 font-medium">Your payout account is not finished yet.</p>
      ) : null}
      <ul className="mt-4 space-y-2">
        <li>
          {state === "complete" ? (
            <Link to="/app/account/payments">My Payments</Link>
          ) : state === "incomplete" ? (
            <Link to="/app/payments/setup">Finish payments setup</Link>
          ) : (
            <Link to="/app/payments/setup">Set up payments</Link>
          )}
        </li>
        <li>
          <Link to="/app/account/bizbio">Your bio pages</Link>
        </li>
      </ul>
    </>
  );
}

export default function MyAccount({ loaderData, actionData }: Route.ComponentProps) {
  const { user, profileName, photoId, accountType, payoutState, providerName, proLine, hasBillingCustomer, notificationRows, deletionProof, twoFactorOn } = loaderData;
  const saving = useNavigation().formData?.get("intent") === "profile";
  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:py-14">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">My Account</h1>
        {hasBillingCustomer ? (
          // The provider's billing portal, made on demand (a POST), returning here.
          <Form method="post" action="/app/account/pro-portal">
            <button type="submit" className={primaryButton}>
              Pro Portal
            </button>
          </Form>
        ) : (
          <Link to="/app/pro" className={`${primaryButton} no-underline`}>
            Pro Portal
          </Link>
        )}
      </div>
      <p className="mt-2 text-muted" data-testid="pro-status">
        {proLine}
      </p>

      <div className="mt-8 grid gap-6 md:grid-cols-2">
        <Section title="Account Info">
          <dl className="space-y-3">
            <div>
              <dt className="text-sm text-muted">Email</dt>
              <dd className="font-medium break-all">{user.email}</dd>
            </div>
            <div>
              <dt className="text-sm text-muted">Name</dt>
              <dd className="font-medium">{user.name}</dd>
            </div>
            <div>
              <dt className="text-sm text-muted">Account type</dt>
              <dd className="font-medium">{accountType ? TYPE_LABELS[accountType] : "No type chosen"}</dd>
            </div>
          </dl>
          <div className="mt-5">
            <ResetPasswordPill />
            {actionData?.resetSent ? <p className="mt-2 text-sm">We sent a password reset link to {user.email}.</p> : null}
          </div>
        </Section>

        <Section title="Public Profile">
          <p className="text-sm text-muted">User ID</p>
          <p className="font-mono text-sm break-all">{user.id}</p>
          <Form method="post" noValidate className="mt-4 space-y-3">
            <TextField
              label="Profile name"
              name="profileName"
              defaultValue={profileName}
              maxLength={200}
              error={actionData?.profileError}
              hint="Shown on your opportunities and bio pages."
            />
            <button type="submit" name="intent" value="profile" className={primaryButton} disabled={saving}>
              {saving ? "Saving..." : "Save"}
            </button>
          </Form>
        </Section>

        <Section title="Two-factor sign-in" anchor="two-factor" className="scroll-mt-20 md:col-span-2">
          <p>
            {twoFactorOn
              ? "On: signing in asks for your password and a code from your authenticator app."
              : "Off: add a code from an authenticator app to your password, so a stolen password alone cannot sign in."}
          </p>
          <p className="mt-3">
            <Link to="/app/account/two-factor">{twoFactorOn ? "Manage two-factor sign-in" : "Set up two-factor sign-in"}</Link>
          </p>
        </Section>

        <Section title="Profile Photo" anchor="photo" className="scroll-mt-20 md:col-span-2">
          <PhotoUpload name={profileName || user.name} photoId={photoId} returnTo="/app/account#photo" />
        </Section>

        <Section title="Collect Tips">
          <CollectTips state={payoutState} providerName={providerName} />
        </Section>

        <Section title="Helpful links">
          <ul className="space-y-2">
            <li><Link to="/app/account/opportunities">My Posts</Link></li>
            <li><Link to="/app/account/opportunities/liked">Liked Posts</Link></li>
            <li><Link to="/app/account/memberships">My memberships</Link></li>
            <li><Link to="/app/account/sponsors">Sponsors Dashboard</Link></li>
            <li><Link to="/app/account/api-keys">API keys</Link></li>
            <li><Link to="/support">Frequently Asked Questions</Link></li>
            <li><Link to="/support/payments">Payments Support</Link></li>
            <li><Link to="/support/code-of-conduct">Code of Conduct</Link></li>
          </ul>
        </Section>

        <Section title="Notifications" anchor="notifications" className="scroll-mt-20 md:col-span-2">
          <NotificationPreferences rows={notificationRows} />
        </Section>

        <Section title="Billing details" anchor="billing" className="scroll-mt-20 md:col-span-2">
          <p>Your legal name, address and tax id for the invoices of your deals, and the tax your prices include if you charge one.</p>
          <p className="mt-3">
            <Link to="/app/account/billing">Edit billing details</Link>
          </p>
        </Section>

        <Section title="Webhooks" anchor="webhooks" className="scroll-mt-20 md:col-span-2">
          <p>Send what happens on your account (payments, refunds, Pro, hearts, notifications) to your own tools as signed requests.</p>
          <p className="mt-3">
            <Link to="/app/account/webhooks">Manage webhooks</Link>
          </p>
        </Section>

        <Section title="Delete Account" anchor="delete-account" className="scroll-mt-20 md:col-span-2">
          <DeleteAccount proof={deletionProof} providerName={providerName} state={actionData?.deletion} />
        </Section>
      </div>
      <PageNotice>{actionData?.error}</PageNotice>
    </div>
  );
}
