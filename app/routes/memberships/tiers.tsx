import { Link, useNavigation } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { listMembershipTiers } from "#server/features/operations/bio-pages/membership-tiers";
import { pageCaller, runForPage } from "#app/lib/operation-door.server";
import { TierEditor, TIER_INTENTS } from "#app/components/memberships/TierEditor";
import { FormNotice } from "#page-kit/forms";
import { pageMeta } from "#page-kit/meta";
import { answerRefusal, refuseWith } from "#page-kit/respond.server";
import { readForm } from "#page-kit/form.server";
import type { Route } from "./+types/tiers";
import { tierRows, tiersAction, type TiersActionData } from "./tiers.server";

/**
 * The membership tiers of one of the caller's bio pages (ADR 0084), linked from the bio editor:
 * each tier its own plain form, as the editor's "Work with me" packages are. The listMembershipTiers,
 * createMembershipTier and updateMembershipTier operations (server/features/operations/bio-pages/),
 * which /api/v1 runs too. Someone else's page is "not found".
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const result = await runForPage(listMembershipTiers, { caller: pageCaller(user), input: { pageId: params.pageId }, context, notFound: "answer" });
  if (result.kind === "ERROR") refuseWith(result);
  return { page: result.page, takesPayments: result.takesPayments, tiers: tierRows(result.tiers), bioOrigin: context.config.BIO_ORIGIN };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireVerifiedUser(request, context);
  const read = await readForm(request);
  if (read.kind === "ERROR") {
    const answer: TiersActionData = { tiers: { tierId: "new", values: { name: "", monthlyPrice: "", yearlyPrice: "", benefits: "", memberLimit: "", welcomeMessage: "" }, errors: {}, message: read.message, formKey: crypto.randomUUID() } };
    return answerRefusal(read, answer);
  }
  return tiersAction(request, context, user, params.pageId, read.form);
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Membership tiers", noindex: true });

export default function MembershipTiers({ loaderData, actionData }: Route.ComponentProps) {
  const { page, takesPayments, tiers, bioOrigin } = loaderData;
  const navigation = useNavigation();
  const intent = navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : "";
  const busy = (TIER_INTENTS as readonly string[]).includes(intent);
  const address = `${new URL(bioOrigin).host}/${page.customEnding}`;
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
      <Link to={`/edit/${page.id}`} className="text-sm font-semibold">
        ← Edit {page.name}
      </Link>
      <h1 className="mt-4 text-3xl font-bold">Membership tiers</h1>
      <section aria-labelledby="tiers-heading" className="mt-6 rounded-2xl border border-primary/15 bg-white p-5 shadow-sm sm:p-6">
        <h2 id="tiers-heading" className="text-xl font-bold">
          Your tiers
        </h2>
        <p className="mt-2 text-muted">
          Fans join a tier from the “Become a member” part of <a href={`${bioOrigin}/${page.customEnding}`}>{address}</a> and pay you every month or year until they cancel.
          Pausing a tier stops new members; retiring takes it off your page. Neither changes anything for those who already belong.
        </p>
        {!takesPayments ? (
          <div className="mt-4">
            <FormNotice kind="info">
              <p>
                Your page can't take payments yet, so fans don't see your tiers. <a href="/app/payments/setup">Connect your payout account</a> to turn them on.
              </p>
            </FormNotice>
          </div>
        ) : null}
        <TierEditor tiers={tiers} answer={actionData && "tiers" in actionData ? actionData.tiers : undefined} busy={busy} />
      </section>
    </div>
  );
}
