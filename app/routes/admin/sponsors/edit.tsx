import { Form, Link, useNavigation } from "react-router";
import { requireStaff } from "#server/domains/auth/staff-guard";
import { editCompany, getStaffCompany, setCompanyRetired } from "#server/domains/sponsor-directory/curation";
import { companyFromForm, type CompanyFieldErrors, type FlatCompany } from "#server/domains/sponsor-directory/company-fields";
import { listSponsorTags } from "#server/domains/sponsor-directory/tags";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import { answerRefusal, refuse, refuseWith, requireForm } from "#page-kit/respond.server";
import { FormNotice, secondaryButton } from "#page-kit/forms";
import { pageMeta } from "#page-kit/meta";
import { CompanyForm } from "#app/components/admin/CompanyForm";
import type { Route } from "./+types/edit";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const company = await getStaffCompany(context.db, params.sponsorId);
  if (!company) refuse("not-found");
  return { company, allTags: await listSponsorTags(context.db) };
}

/** Save the facts, or retire / restore the company (two buttons, two intents). */
export async function action({ request, context, params }: Route.ActionArgs) {
  const staff = await requireStaff(request, context);
  const form = await requireForm(request);
  const intent = form.get("intent");
  const here = `/app/admin/sponsors/${params.sponsorId}`;
  if (intent === "retire" || intent === "restore") {
    const result = await setCompanyRetired(context.db, staff.actor, params.sponsorId, intent === "retire");
    if (result.kind === "ERROR") refuseWith(result);
    return redirectWithToast(request, context.sessionSecret, here, {
      kind: "success",
      message: intent === "retire" ? "Retired: Pro members no longer see this company." : "Restored: Pro members see this company again.",
    });
  }
  const flat = companyFromForm(form);
  const edited = await editCompany(context.db, staff.actor, params.sponsorId, flat);
  if (edited.kind === "ERROR") {
    if (edited.code === "not-found") refuseWith(edited);
    return answerRefusal(edited, { values: flat, errors: "fieldErrors" in edited ? edited.fieldErrors : {} });
  }
  return redirectWithToast(request, context.sessionSecret, here, { kind: "success", message: edited.changed ? "Saved." : "Nothing changed." });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: `${args.data?.company.flat.name ?? "Company"} · Back office`, noindex: true });

export default function EditCompany({ loaderData, actionData }: Route.ComponentProps) {
  const { company, allTags } = loaderData;
  const navigation = useNavigation();
  const answer = actionData as { values: FlatCompany; errors: CompanyFieldErrors } | undefined;
  const retired = company.retiredAt !== null;
  return (
    <>
      <p className="text-sm">
        <Link to="/app/admin/sponsors">← Sponsor directory</Link>
      </p>
      <h1 className="mt-3 break-words text-3xl font-bold">{company.flat.name}</h1>
      <p className="mt-2 text-sm text-muted">
        Id {company.id} · added {company.addedAt.slice(0, 10)}
        {company.sample ? " · sample company" : ""}
      </p>
      <div className="mt-4 max-w-2xl">
        {retired ? (
          <FormNotice kind="info">Retired on {company.retiredAt!.slice(0, 10)}: hidden from Pro members, kept here.</FormNotice>
        ) : (
          <p>
            {company.sample ? "Shown to Pro members while the directory has no real company" : "Shown to Pro members"}:{" "}
            <Link to={`/app/sponsors/${company.id}`}>see its page</Link>.
          </p>
        )}
        <Form method="post" className="mt-3">
          <button type="submit" name="intent" value={retired ? "restore" : "retire"} className={secondaryButton} disabled={navigation.state === "submitting"}>
            {retired ? "Restore company" : "Retire company"}
          </button>
        </Form>
      </div>
      <h2 className="mt-8 text-xl font-bold">Facts and sources</h2>
      {answer ? (
        <div className="mt-4 max-w-2xl">
          <FormNotice>Nothing was saved: some fields need a change.</FormNotice>
        </div>
      ) : null}
      <CompanyForm
        key={company.id}
        values={answer?.values ?? company.flat}
        errors={answer?.errors ?? {}}
        allTags={allTags}
        submitLabel="Save changes"
        busy={navigation.state === "submitting"}
      />
    </>
  );
}
