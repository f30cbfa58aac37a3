import { Link, useNavigation } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { timeZoneGroups } from "#server/domains/opportunities/time-zone-groups";
import { loadTagCatalogue } from "#server/domains/opportunities/tags";
import { accountTypeOf } from "#server/domains/accounts/profiles";
import type { OpportunityKind } from "#server/platform/db/schema";
import { FormNotice } from "#page-kit/forms";
import { OpportunityFormFields } from "#app/components/opportunities/OpportunityFormFields";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/new";
import { saveOpportunity } from "./editor.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const [catalogue, accountType] = await Promise.all([loadTagCatalogue(context.db), accountTypeOf(context.db, user.id)]);
  // A link may ask for one way ("Post a brief" on Become a Sponsor); else the account type's.
  const asked = new URL(request.url).searchParams.get("kind");
  const defaultKind: OpportunityKind = asked === "brief" || asked === "request" ? asked : accountType === "sponsor" ? "brief" : "request";
  return { catalogue, timeZones: timeZoneGroups(), defaultKind };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireVerifiedUser(request, context);
  return saveOpportunity(request, context, user, "create");
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "New opportunity" });

export default function NewOpportunity({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
      <Link to="/app/opportunities" className="text-sm font-semibold">
        ← All opportunities
      </Link>
      <h1 className="mt-4 text-3xl font-bold">New opportunity</h1>
      <p className="mt-2 text-muted">
        Tell creators what you offer. Keep it professional and follow the <Link to="/support/code-of-conduct">Code of Conduct</Link>.
      </p>
      {actionData?.message ? (
        <div className="mt-6">
          <FormNotice>{actionData.message}</FormNotice>
        </div>
      ) : null}
      {actionData?.errors && Object.keys(actionData.errors).length > 0 ? (
        <div className="mt-6">
          <FormNotice>Please correct the fields marked below.</FormNotice>
        </div>
      ) : null}
      <OpportunityFormFields
        key={actionData?.formKey ?? "form"}
        values={actionData?.values ?? {}}
        errors={actionData?.errors ?? {}}
        catalogue={loaderData.catalogue}
        timeZones={loaderData.timeZones}
        defaultKind={loaderData.defaultKind}
        submitLabel="Post opportunity"
        busy={busy}
      />
    </div>
  );
}
