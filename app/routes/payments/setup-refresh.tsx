import { data, redirect } from "react-router";
import { requireVerifiedUser } from "#server/auth/session";
import { httpStatusOf } from "#server/errors";
import { resumeOnboarding } from "#server/payments/connect";
import { redirectWithToast } from "#app/lib/toast.server";
import type { Route } from "./+types/setup-refresh";
import { MY_PAYMENTS_PATH as MY_PAYMENTS } from "#app/components/payments/PayoutSetup";

/** The provider's onboarding link expired: a fresh one for the same account (the user's own `?state=` only). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const stateToken = new URL(request.url).searchParams.get("state") ?? "";
  const result = await resumeOnboarding(context.db, context.payments, { uid: user.id, email: user.email, stateToken, origin: context.config.PUBLIC_ORIGIN });
  switch (result.kind) {
    case "CREATE_NEW":
    case "EXISTING_INCOMPLETE":
      throw redirect(result.url);
    case "EXISTING_COMPLETE":
      return redirectWithToast(request, context.sessionSecret, MY_PAYMENTS, { kind: "success", message: "Payouts are already on for your account." });
    case "ERROR":
      if ("code" in result) throw data(result.message, { status: httpStatusOf(result.code) });
      context.logger.error({ uid: user.id, reason: result.message }, "payments setup: onboarding refresh failed");
      throw redirect("/500");
  }
}
