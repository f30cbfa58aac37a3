import { redirect, type AppLoadContext } from "react-router";
import { notificationDepsOf } from "#server/domains/notifications/deps";
import { getOrCreateConnectedAccount, type resumeOnboarding } from "#server/domains/payments/payouts/connect";
import { payoutAccountOf } from "#server/domains/payments/records/payments-overview";
import { parseSetupForm } from "#server/domains/payments/payouts/setup-form";
import { MY_PAYMENTS_PATH as MY_PAYMENTS, type PayoutSetupData, type PayoutSetupErrors } from "#app/components/payments/PayoutSetup";
import { readForm } from "#page-kit/form.server";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import { safeRedirectPath } from "#server/platform/http/redirects";
import { answerRefusal, refuseWith } from "#page-kit/respond.server";

type SignedIn = { id: string; email: string };

/**
 * Where the setup sends the person once payouts are on: `?next=` when it is a path of ours
 * (the setup checklist passes its own), My Payments otherwise. Never another site.
 */
export function setupReturnOf(request: Request): string | undefined {
  const next = new URL(request.url).searchParams.get("next");
  const safe = safeRedirectPath(next, "");
  return safe === "" ? undefined : safe;
}
type AnyConnectResult = Awaited<ReturnType<typeof getOrCreateConnectedAccount>> | Awaited<ReturnType<typeof resumeOnboarding>>;

export async function payoutSetupData(context: AppLoadContext, user: SignedIn): Promise<PayoutSetupData> {
  const account = await payoutAccountOf(context.db, user.id);
  return { state: account.state, accountType: account.accountType, email: user.email, providerName: context.payments.displayName };
}

/**
 * "Connect with {provider}" (getOrCreateConnectedAccount): a new or
 * unfinished account goes on to the provider's onboarding page, a complete
 * one to My Payments.
 */
export async function connectAction(request: Request, context: AppLoadContext, user: SignedIn) {
  const read = await readForm(request);
  if (read.kind === "ERROR") return answerRefusal<PayoutSetupErrors>(read, { message: read.message });
  const parsed = parseSetupForm(read.form);
  if (parsed.kind === "ERROR") return answerRefusal<PayoutSetupErrors>(parsed, { values: parsed.values, errors: parsed.errors });

  const result = await getOrCreateConnectedAccount(context.db, context.payments, {
    uid: user.id,
    email: parsed.values.email,
    accountType: parsed.values.accountType,
    origin: context.config.PUBLIC_ORIGIN,
    returnTo: setupReturnOf(request),
  }, notificationDepsOf(context));
  return answerConnectResult(request, context, user, result, "connected account failed");
}

/**
 * Where a ConnectResult leads: a new or unfinished account to the provider's
 * onboarding page, a complete one to My Payments. A refusal is the error page
 * at the address that failed, with its code's status (ADR 0014, where SPEC §4
 * says "the 500 page"): a wrong state token 403, an account row not saved 500,
 * a provider that did not answer 503 — so a reload retries the very request.
 */
export function answerConnectResult(request: Request, context: AppLoadContext, user: SignedIn, result: AnyConnectResult, failed: string) {
  if (result.kind === "ERROR") {
    if (result.reason !== "NOT_YOUR_LINK") context.logger.error({ uid: user.id, reason: result.message }, `payments setup: ${failed}`);
    refuseWith(result);
  }
  if (result.outcome === "EXISTING_COMPLETE") {
    return redirectWithToast(request, context.sessionSecret, setupReturnOf(request) ?? MY_PAYMENTS, { kind: "success", message: "Payouts are already on for your account." });
  }
  // The provider's own page (an absolute URL it gave us), not a path of ours.
  throw redirect(result.url);
}
