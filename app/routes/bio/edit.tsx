import { Link, useNavigation } from "react-router";
import { requireVerifiedUser } from "#server/auth/session";
import { getOwnPage } from "#server/bio/pages";
import { linkRowsOf } from "#server/bio/form";
import { BioPageForm } from "#app/components/bio/BioPageForm";
import { WallAndGoalSettings } from "#app/components/bio/WallAndGoalSettings";
import { SupportSettings } from "#app/components/bio/SupportSettings";
import { readSupportSettings, supportSettingsInput } from "#server/bio/support-settings";
import { localeFrom } from "#isomorphic/format";
import { pageMeta } from "#page-kit/meta";
import { refuseWith } from "#page-kit/respond.server";
import type { Route } from "./+types/edit";
import { bioEditorAction, editorContext, type BioEditorActionData } from "./editor.server";
import { WALL_GOAL_INTENTS, wallGoalAction, wallGoalView, type WallGoalActionData } from "./wall-goal.server";
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
    values: { name: page.name, customEnding: page.customEnding, blurb: page.blurb, links: linkRowsOf(page.links), sponsorships: page.sponsorships },
    locale: localeFrom(request.headers.get("Accept-Language")),
    wallGoal: await wallGoalView(context, user.id, page.id),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireVerifiedUser(request, context);
  const pageId = pageIdFrom(request, params);
  const wallGoal = (form: FormData) => wallGoalAction(request, context, user.id, pageId, form);
  return bioEditorAction(request, context, user.id, pageId, {
    [SUPPORT_INTENT]: (form) => supportSettingsAction(request, context, user.id, pageId, form),
    ...Object.fromEntries(WALL_GOAL_INTENTS.map((intent) => [intent, wallGoal])),
  });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Edit bio page", noindex: true });

export default function EditBioPage({ loaderData, actionData: answered }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const intent = navigation.formData?.get("intent");
  // Each of the editor's forms answers in its own shape and reads only its own answer.
  const supportAnswer = answered && "support" in answered ? answered.support : undefined;
  // The intents' answers are typed by the first handler only, so the wall and goal form's is named here.
  const wallGoalAnswer = answered && "wallGoal" in answered ? (answered as WallGoalActionData).wallGoal : undefined;
  const pageAnswer = answered && !("support" in answered) && !("wallGoal" in answered) ? (answered as BioEditorActionData) : undefined;
  const savingSupport = busy && intent === "support";
  const savingWallGoal = busy && typeof intent === "string" && (WALL_GOAL_INTENTS as readonly string[]).includes(intent);
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
      <Link to="/app/account/bizbio" className="text-sm font-semibold">
        ← Your Pages
      </Link>
      <h1 className="mt-4 text-3xl font-bold">Edit bio page</h1>
      <BioPageForm
        key={pageAnswer?.formKey ?? "form"}
        values={pageAnswer?.values ?? loaderData.values}
        errors={pageAnswer?.errors ?? {}}
        message={pageAnswer?.message}
        choices={loaderData.choices}
        options={loaderData.options}
        bioOrigin={loaderData.bioOrigin}
        fixedEnding={loaderData.page.customEnding}
        submitLabel="Save changes"
        busy={busy && !savingSupport && !savingWallGoal}
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
      <WallAndGoalSettings
        key={wallGoalAnswer?.formKey ?? "wall-goal"}
        values={wallGoalAnswer?.values ?? loaderData.wallGoal.values}
        errors={wallGoalAnswer?.errors ?? {}}
        hasGoal={loaderData.wallGoal.hasGoal}
        progressText={loaderData.wallGoal.progressText}
        supportersHref={`/app/account/bizbio/${loaderData.page.id}/supporters`}
        busy={savingWallGoal}
      />
    </div>
  );
}
