import { Link, useNavigation } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { formInputOfPost } from "#server/domains/opportunities/form";
import { timeZoneGroups } from "#server/domains/opportunities/time-zone-groups";
import { getOpportunity } from "#server/domains/opportunities/read";
import { loadTagCatalogue } from "#server/domains/opportunities/tags";
import { FormNotice } from "#page-kit/forms";
import { OpportunityFormFields } from "#app/components/opportunities/OpportunityFormFields";
import { pageMeta } from "#page-kit/meta";
import { refuse } from "#page-kit/respond.server";
import type { Route } from "./+types/edit";
import { saveOpportunity } from "./editor.server";

/** The post being edited, if it exists and belongs to the reader (403/404 otherwise). */
async function ownPost(context: Route.LoaderArgs["context"], uid: string, docId: string | null) {
  const post = docId ? await getOpportunity(context.db, docId, uid) : null;
  if (!post) refuse("not-found", "This opportunity doesn't exist or was deleted.");
  if (post.posterUid !== uid) refuse("permission-denied", "Only the person who posted this opportunity can change it.");
  return post;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const post = await ownPost(context, user.id, new URL(request.url).searchParams.get("docId"));
  const values = formInputOfPost(post);
  return { docId: post.id, values, catalogue: await loadTagCatalogue(context.db), timeZones: timeZoneGroups() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireVerifiedUser(request, context);
  return saveOpportunity(request, context, user, "edit");
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Edit opportunity" });

export default function EditOpportunity({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
      <Link to={`/app/opportunities/${loaderData.docId}`} className="text-sm font-semibold">
        ← Back to the opportunity
      </Link>
      <h1 className="mt-4 text-3xl font-bold">Edit opportunity</h1>
      {actionData?.message ? (
        <div className="mt-6">
          <FormNotice>{actionData.message}</FormNotice>
        </div>
      ) : null}
      <OpportunityFormFields
        key={actionData?.formKey ?? "form"}
        values={actionData?.values ?? loaderData.values}
        errors={actionData?.errors ?? {}}
        catalogue={loaderData.catalogue}
        submitLabel="Save changes"
        busy={busy}
        docId={loaderData.docId}
        timeZones={loaderData.timeZones}
      />
    </div>
  );
}
