import { Link } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { MY_PAYMENTS_PATH as MY_PAYMENTS, PayoutSetup, SETUP_PATH } from "#app/components/payments/PayoutSetup";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/setup";
import { connectAction, payoutSetupData } from "./payments.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  return payoutSetupData(context, user);
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireVerifiedUser(request, context);
  return connectAction(request, context, user);
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Payments setup" });

export default function PaymentsSetup({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-2xl px-4 py-10 sm:py-14">
      <Link to={MY_PAYMENTS} className="text-sm font-semibold">
        ← My Payments
      </Link>
      <h1 className="mt-4 text-3xl font-bold">Payments setup</h1>
      <p className="mt-2 text-muted">
        Connect a payout account to take tips and sponsorships from your bio pages. The money goes to your account at {loaderData.providerName}.
      </p>
      <div className="mt-8">
        <PayoutSetup setup={loaderData} action={SETUP_PATH} feedback={actionData} />
      </div>
    </div>
  );
}
