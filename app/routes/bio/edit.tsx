import { useRef } from "react";
import { Link, useNavigation } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { linkRowsOf } from "#server/domains/bio/form";
import { readBioPage } from "#server/features/operations/bio-pages/read";
import { pageCaller, runForPage } from "#app/lib/operation-door.server";
import { readSupportSettings, supportSettingsInput } from "#server/domains/bio/support-settings";
import { themeFormValues } from "#server/domains/bio/theme";
import { profilePhotoOf } from "#server/domains/media/photos";
import { BioPageForm } from "#app/components/bio/BioPageForm";
import { PhonePreview } from "#app/components/bio/PhonePreview";
import { ProfilePhotoSection } from "#app/components/bio/ProfilePhotoSection";
import { SUPPORT_INTENT, SupportSettings } from "#app/components/bio/SupportSettings";
import { ThemePicker } from "#app/components/bio/ThemePicker";
import { WALL_GOAL_INTENTS, WallAndGoalSettings } from "#app/components/bio/WallAndGoalSettings";
import { PACKAGE_INTENTS, WorkWithMe } from "#app/components/bio/WorkWithMe";
import { themeOf } from "#isomorphic/bio-theme";
import { localeFrom } from "#isomorphic/format";
import { pageMeta } from "#page-kit/meta";
import { refuseWith } from "#page-kit/respond.server";
import type { Route } from "./+types/edit";
import { bioEditorAction, editorContext } from "./editor.server";
import { packagesAction, packagesView } from "./packages.server";
import { supportSettingsAction } from "./support-settings.server";
import { bioThemeAction } from "./theme-action.server";
import { wallGoalAction, wallGoalView } from "./wall-goal.server";

/**
 * One form, two addresses: /app/account/bizbio/edit?page={id} and SPEC's
 * /edit/{id} (registered twice in app/routes.ts). The page id comes from the
 * address, never from the form, so a form can't aim at another page.
 * The readBioPage and updateBioPage operations (server/features/operations/bio-pages/); the
 * editor's other forms and its link-row buttons are the page's own.
 */
function pageIdFrom(request: Request, params: { pageId?: string }): string {
  return params.pageId ?? new URL(request.url).searchParams.get("page") ?? "";
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  // The domain's own not-found message on the 404 page, as before the operation: hence "answer".
  const result = await runForPage(readBioPage, { caller: pageCaller(user), input: { pageId: pageIdFrom(request, params) }, context, notFound: "answer" });
  if (result.kind === "ERROR") refuseWith(result);
  const { page } = result;
  const support = await readSupportSettings(context.db, { uid: user.id }, page.id);
  if (support.kind === "ERROR") refuseWith(support);
  const here = new URL(request.url);
  return {
    ...(await editorContext(context, user.id)),
    page: { id: page.id, customEnding: page.customEnding },
    values: { name: page.name, customEnding: page.customEnding, blurb: page.blurb, links: linkRowsOf(page.links), sponsorships: page.sponsorships },
    photo: { name: user.name, photoId: await profilePhotoOf(context.db, user.id), returnTo: `${here.pathname}${here.search}` },
    theme: themeFormValues(themeOf(page.theme)),
    support: { values: supportSettingsInput(support.settings), takesPayments: support.takesPayments },
    wallGoal: await wallGoalView(context, user.id, page.id),
    packages: await packagesView(context, user.id, page.id),
    locale: localeFrom(request.headers.get("Accept-Language")),
  };
}

/** What the edit page's own-intent forms answer: each its own shape, so the page tells them apart. */
type EditorFormAnswer = Awaited<ReturnType<typeof bioThemeAction | typeof supportSettingsAction | typeof wallGoalAction | typeof packagesAction>>;

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireVerifiedUser(request, context);
  const pageId = pageIdFrom(request, params);
  const wallGoal = (form: FormData) => wallGoalAction(request, context, user.id, pageId, form);
  const packages = (form: FormData) => packagesAction(request, context, user.id, pageId, form);
  return bioEditorAction<EditorFormAnswer>(request, context, user, pageId, {
    theme: (form) => bioThemeAction(request, context, user.id, pageId, form),
    [SUPPORT_INTENT]: (form) => supportSettingsAction(request, context, user.id, pageId, form),
    ...Object.fromEntries(WALL_GOAL_INTENTS.map((intent) => [intent, wallGoal])),
    ...Object.fromEntries(PACKAGE_INTENTS.map((intent) => [intent, packages])),
  });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Edit bio page", noindex: true });

/**
 * The forms on the left, the page as visitors will see it on the right (on
 * a phone: below the forms, a link away), kept in view while the forms scroll.
 * Each form answers in its own shape and reads only its own answer.
 */
export default function EditBioPage({ loaderData, actionData: answered }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const forms = useRef<HTMLDivElement>(null);
  const themeAnswer = answered && "theme" in answered ? answered.theme : undefined;
  const supportAnswer = answered && "support" in answered ? answered.support : undefined;
  const wallGoalAnswer = answered && "wallGoal" in answered ? answered.wallGoal : undefined;
  const packagesAnswer = answered && "packages" in answered ? answered.packages : undefined;
  const pageAnswer = answered && "formKey" in answered ? answered : undefined;
  const savingTheme = submitting === "theme";
  const savingSupport = submitting === SUPPORT_INTENT;
  const savingWallGoal = typeof submitting === "string" && (WALL_GOAL_INTENTS as readonly string[]).includes(submitting);
  const savingPackages = typeof submitting === "string" && (PACKAGE_INTENTS as readonly string[]).includes(submitting);
  const savingPage = Boolean(submitting) && !savingTheme && !savingSupport && !savingWallGoal && !savingPackages;
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:py-14">
      <Link to="/app/account/bizbio" className="text-sm font-semibold">
        ← Your Pages
      </Link>
      <h1 className="mt-4 text-3xl font-bold">Edit bio page</h1>
      <a href="#preview" className="mt-2 inline-block text-sm font-semibold lg:hidden">
        See the preview
      </a>
      <div className="lg:grid lg:grid-cols-[minmax(0,1fr)_26rem] lg:gap-12">
        <div ref={forms} className="min-w-0">
          <ProfilePhotoSection {...loaderData.photo} />
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
            busy={savingPage}
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
          <section id="look" className="mt-12 scroll-mt-6 border-t border-ink/15 pt-10">
            <ThemePicker key={themeAnswer?.formKey ?? "theme"} initial={themeAnswer?.values ?? loaderData.theme} errors={themeAnswer?.errors ?? {}} busy={savingTheme} />
          </section>
          <WallAndGoalSettings
            key={wallGoalAnswer?.formKey ?? "wall-goal"}
            values={wallGoalAnswer?.values ?? loaderData.wallGoal.values}
            errors={wallGoalAnswer?.errors ?? {}}
            hasGoal={loaderData.wallGoal.hasGoal}
            progressText={loaderData.wallGoal.progressText}
            supportersHref={`/app/account/bizbio/${loaderData.page.id}/supporters`}
            busy={savingWallGoal}
          />
          <WorkWithMe packages={loaderData.packages} answer={packagesAnswer} takesPayments={loaderData.support.takesPayments} busy={savingPackages} />
        </div>
        <section id="preview" aria-labelledby="preview-heading" className="mt-12 scroll-mt-6 lg:mt-8">
          <div className="lg:sticky lg:top-6">
            <h2 id="preview-heading" className="mb-4 text-center text-lg font-semibold">
              Preview
            </h2>
            <PhonePreview src={`/app/account/bizbio/${loaderData.page.id}/preview`} forms={forms} />
          </div>
        </section>
      </div>
    </div>
  );
}
