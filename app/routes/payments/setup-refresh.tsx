import { requireVerifiedUser } from "#server/domains/auth/session";
import { notificationDepsOf } from "#server/domains/notifications/deps";
import { resumeOnboarding } from "#server/domains/payments/payouts/connect";
import type { Route } from "./+types/setup-refresh";
import { answerConnectResult, setupReturnOf } from "./payments.server";

/** The provider's onboarding link expired: a fresh one for the same account (the user's own `?state=` only). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const stateToken = new URL(request.url).searchParams.get("state") ?? "";
  const result = await resumeOnboarding(context.db, context.payments, { uid: user.id, email: user.email, stateToken, origin: context.config.PUBLIC_ORIGIN, returnTo: setupReturnOf(request) }, notificationDepsOf(context));
  return answerConnectResult(request, context, user, result, "onboarding refresh failed");
}
