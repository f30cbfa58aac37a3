import { Link } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { notificationDepsOf } from "#server/domains/notifications/deps";
import { completeOnboardingReturn } from "#server/domains/payments/payouts/connect";
import { MY_PAYMENTS_PATH as MY_PAYMENTS, PayoutSetup, SETUP_PATH } from "#app/components/payments/PayoutSetup";
import { FormNotice } from "#page-kit/forms";
import { pageMeta } from "#page-kit/meta";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import { answerRefusal } from "#page-kit/respond.server";
import type { Route } from "./+types/setup-return";
import { payoutSetupData, setupReturnOf } from "./payments.server";

/**
 * Where the provider sends the person after onboarding (`?state=`, bound to
 * the signed-in user). Coming back is not finishing: the account is read
 * fresh, and only one that can take charges turns payouts on.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const stateToken = new URL(request.url).searchParams.get("state") ?? "";
  const result = await completeOnboardingReturn(context.db, context.payments, { uid: user.id, stateToken }, notificationDepsOf(context));
  // Refused (someone else's or an old link) or the provider unreachable: said on the page, with the way on.
  if (result.kind === "ERROR") return answerRefusal(result, { refused: result.message, setup: null, next: null });
  if (result.completed) {
    return redirectWithToast(request, context.sessionSecret, setupReturnOf(request) ?? MY_PAYMENTS, { kind: "success", message: "Your payout account is connected. Payouts are on." });
  }
  return { refused: null, setup: await payoutSetupData(context, user), next: setupReturnOf(request) ?? null };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Payments setup", noindex: true });

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function OnboardingReturn({ loaderData }: Route.ComponentProps) {
  const { refused, setup, next } = loaderData;
  if (!setup) {
    return (
      <div className="mx-auto max-w-2xl px-4 py-10 sm:py-14">
        <h1 className="text-3xl font-bold">Payments setup</h1>
        <div className="mt-8">
          <FormNotice>{refused}</FormNotice>
        </div>
        <p className="mt-6">
          <Link to={MY_PAYMENTS}>Go to My Payments</Link>
        </p>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-2xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold">Payments setup</h1>
      <div className="mt-8 space-y-6">
        <FormNotice kind="info">
          Welcome back. {setup.providerName} has not confirmed your payout account yet: either some details are still missing, or the
          confirmation is on its way. You can continue the setup now, or come back to My Payments in a minute.
        </FormNotice>
        <PayoutSetup setup={setup} action={next ? `${SETUP_PATH}?${new URLSearchParams({ next })}` : SETUP_PATH} />
      </div>
    </div>
  );
}
