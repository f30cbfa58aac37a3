import { Link, useNavigation } from "react-router";
import { requireStaff } from "#server/domains/auth/staff-guard";
import { addCompany } from "#server/domains/sponsor-directory/curation";
import { companyFromForm, type CompanyFieldErrors, type FlatCompany } from "#server/domains/sponsor-directory/company-fields";
import { listSponsorTags } from "#server/domains/sponsor-directory/tags";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import { answerRefusal, requireForm } from "#page-kit/respond.server";
import { FormNotice } from "#page-kit/forms";
import { pageMeta } from "#page-kit/meta";
import { CompanyForm } from "#app/components/admin/CompanyForm";
import type { Route } from "./+types/new";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  return { allTags: await listSponsorTags(context.db) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const staff = await requireStaff(request, context);
  const flat = companyFromForm(await requireForm(request));
  const added = await addCompany(context.db, staff.actor, flat);
  if (added.kind === "ERROR") return answerRefusal(added, { values: flat, errors: added.fieldErrors });
  return redirectWithToast(request, context.sessionSecret, `/app/admin/sponsors/${added.id}`, { kind: "success", message: `Added ${flat.name.trim()}.` });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Add a company · Back office", noindex: true });

export default function NewCompany({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const answer = actionData as { values: FlatCompany; errors: CompanyFieldErrors } | undefined;
  return (
    <>
      <p className="text-sm">
        <Link to="/app/admin/sponsors">← Sponsor directory</Link>
      </p>
      <h1 className="mt-3 text-3xl font-bold">Add a company</h1>
      {answer ? (
        <div className="mt-4 max-w-2xl">
          <FormNotice>Nothing was added: some fields need a change.</FormNotice>
        </div>
      ) : null}
      <CompanyForm values={answer?.values ?? null} errors={answer?.errors ?? {}} allTags={loaderData.allTags} submitLabel="Add company" busy={navigation.state === "submitting"} />
    </>
  );
}
