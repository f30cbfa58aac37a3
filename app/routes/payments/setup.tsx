import { Link } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { MY_PAYMENTS_PATH as MY_PAYMENTS, PayoutSetup, SETUP_PATH } from "#app/components/payments/PayoutSetup";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/setup";
import { connectAction, payoutSetupData, setupReturnOf } from "./payments.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  return { ...(await payoutSetupData(context, user)), next: setupReturnOf(request) ?? null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireVerifiedUser(request, context);
  return connectAction(request, context, user);
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Payments setup" });

export default function PaymentsSetup({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-2xl px-4 py-10 sm:py-14">
      <Link to={loaderData.next ?? MY_PAYMENTS} className="text-sm font-semibold">
        {loaderData.next ? "← Back to your checklist" : "← My Payments"}
      </Link>
      <h1 className="mt-4 text-3xl font-bold">Payments setup</h1>
      <p className="mt-2 text-muted">
        Connect a payout account to take tips and sponsorships from your bio pages. The money goes to your account at {loaderData.providerName}.
      </p>
      <div className="mt-8">
        {/* The form posts to its own address, `?next=` included, so the way back survives the provider's pages. */}
        <PayoutSetup setup={loaderData} action={loaderData.next ? `${SETUP_PATH}?${new URLSearchParams({ next: loaderData.next })}` : SETUP_PATH} feedback={actionData} />
      </div>
    </div>
  );
}
