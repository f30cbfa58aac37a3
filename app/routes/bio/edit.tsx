import { Link, useNavigation } from "react-router";
import { requireVerifiedUser } from "#server/auth/session";
import { getOwnPage } from "#server/bio/pages";
import { BioPageForm } from "#app/components/bio/BioPageForm";
import { SupportSettings } from "#app/components/bio/SupportSettings";
import { readSupportSettings, supportSettingsInput } from "#server/bio/support-settings";
import { localeFrom } from "#isomorphic/format";
import { pageMeta } from "#page-kit/meta";
import { refuseWith } from "#page-kit/respond.server";
import type { Route } from "./+types/edit";
import { bioEditorAction, editorContext } from "./editor.server";
import { SUPPORT_INTENT, supportSettingsAction } from "./support-settings.server";

/**
 * One form, two addresses: /app/account/bizbio/edit?page={id} and SPEC's
 * /edit/{id} (registered twice in app/routes.ts). The page id comes from the
 * address, never from the form, so a form can't aim at another page.
 */
function pageIdFrom(request: Request, params: { pageId?: string }): string {
  return params.pageId ?? new URL(request.url).searchParams.get("page") ?? "";
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const result = await getOwnPage(context.db, { uid: user.id }, pageIdFrom(request, params));
  if (result.kind === "ERROR") refuseWith(result);
  const { page } = result;
  const support = await readSupportSettings(context.db, { uid: user.id }, page.id);
  if (support.kind === "ERROR") refuseWith(support);
  return {
    support: { values: supportSettingsInput(support.settings), takesPayments: support.takesPayments },
    ...(await editorContext(context, user.id)),
    page: { id: page.id, customEnding: page.customEnding },
    values: { name: page.name, customEnding: page.customEnding, blurb: page.blurb, links: page.links, sponsorships: page.sponsorships },
    locale: localeFrom(request.headers.get("Accept-Language")),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireVerifiedUser(request, context);
  const pageId = pageIdFrom(request, params);
  return bioEditorAction(request, context, user.id, pageId, {
    [SUPPORT_INTENT]: (form) => supportSettingsAction(request, context, user.id, pageId, form),
  });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Edit bio page", noindex: true });

export default function EditBioPage({ loaderData, actionData: answered }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  // The Support form answers in its own shape; each form reads only its own answer.
  const supportAnswer = answered && "support" in answered ? answered.support : undefined;
  const actionData = answered && !("support" in answered) ? answered : undefined;
  const savingSupport = busy && navigation.formData?.get("intent") === "support";
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
      <Link to="/app/account/bizbio" className="text-sm font-semibold">
        ← Your Pages
      </Link>
      <h1 className="mt-4 text-3xl font-bold">Edit bio page</h1>
      <BioPageForm
        key={actionData?.formKey ?? "form"}
        values={actionData?.values ?? loaderData.values}
        errors={actionData?.errors ?? {}}
        message={actionData?.message}
        choices={loaderData.choices}
        options={loaderData.options}
        bioOrigin={loaderData.bioOrigin}
        fixedEnding={loaderData.page.customEnding}
        submitLabel="Save changes"
        busy={busy && !savingSupport}
        locale={loaderData.locale}
      />
      <SupportSettings
        values={supportAnswer?.values ?? loaderData.support.values}
        errors={supportAnswer?.errors ?? {}}
        message={supportAnswer?.message}
        takesPayments={loaderData.support.takesPayments}
        pageName={loaderData.values.name}
        busy={savingSupport}
      />
    </div>
  );
}
