import { useRef, useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { countEditorErrors } from "#isomorphic/bio-editor";
import { linkRowsOf } from "#server/domains/bio/form";
import { readBioPage } from "#server/features/operations/bio-pages/read";
import { pageCaller, runForPage } from "#app/lib/operation-door.server";
import { useLeaveGuard, useUnsavedChanges } from "#app/lib/use-unsaved-changes";
import { readSupportSettings, supportSettingsInput } from "#server/domains/bio/support-settings";
import { themeFormValues } from "#server/domains/bio/theme";
import { profilePhotoOf } from "#server/domains/media/photos";
import { LeaveConfirm } from "#app/components/LeaveConfirm";
import { BioPageFields } from "#app/components/bio/BioPageForm";
import { EditorSaveBar } from "#app/components/bio/EditorSaveBar";
import type { EditorAnswer, EditorValues } from "#app/components/bio/editor-values";
import { PhonePreview } from "#app/components/bio/PhonePreview";
import { ProfilePhotoSection } from "#app/components/bio/ProfilePhotoSection";
import { SupportSettings } from "#app/components/bio/SupportSettings";
import { ThemePicker } from "#app/components/bio/ThemePicker";
import { WallAndGoalSettings } from "#app/components/bio/WallAndGoalSettings";
import { PACKAGE_INTENTS, WorkWithMe } from "#app/components/bio/WorkWithMe";
import { themeOf } from "#isomorphic/bio-theme";
import { localeFrom } from "#isomorphic/format";
import { pageMeta } from "#page-kit/meta";
import { refuseWith } from "#page-kit/respond.server";
import type { Route } from "./+types/edit";
import { bioEditAction } from "./edit-action.server";
import { editorContext } from "./editor.server";
import { packagesView } from "./packages.server";
import { wallGoalView } from "./wall-goal.server";

/**
 * One editor, two addresses: /app/account/bizbio/edit?page={id} and SPEC's
 * /edit/{id} (registered twice in app/routes.ts). The page id comes from the
 * address, never from the form, so a form can't aim at another page.
 * The readBioPage and saveBioPageEditor operations (server/features/operations/bio-pages/);
 * the link-row buttons and the packages' forms are the page's own.
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
  const wallGoal = await wallGoalView(context, user.id, page.id);
  const values: EditorValues = {
    page: { name: page.name, customEnding: page.customEnding, blurb: page.blurb, links: linkRowsOf(page.links), sponsorships: page.sponsorships },
    theme: themeFormValues(themeOf(page.theme)),
    support: supportSettingsInput(support.settings),
    wallGoal: wallGoal.values,
  };
  return {
    ...(await editorContext(context, user.id)),
    page: { id: page.id, customEnding: page.customEnding },
    values,
    photo: { name: user.name, photoId: await profilePhotoOf(context.db, user.id), returnTo: `${here.pathname}${here.search}` },
    support: { takesPayments: support.takesPayments },
    wallGoal: { hasGoal: wallGoal.hasGoal, progressText: wallGoal.progressText },
    packages: await packagesView(context, user.id, page.id),
    locale: localeFrom(request.headers.get("Accept-Language")),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireVerifiedUser(request, context);
  return bioEditAction(request, context, user, pageIdFrom(request, params));
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Edit bio page", noindex: true });

/**
 * One form on the left for the whole page (its fields, support block, look, wall and goal) with
 * one Save, the page as visitors will see it on the right (on a phone: below, a link away), kept in
 * view while the form scrolls. The photo and the packages save on their own, with JavaScript without
 * leaving the page, so the form's unsaved edits stay in it. Leaving with unsaved edits asks first.
 */
export default function EditBioPage({ loaderData, actionData: answered }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : null;
  const forms = useRef<HTMLDivElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const packagesAnswer = answered && "packages" in answered ? answered.packages : undefined;
  // The form as last drawn by the action stays drawn while a package or the photo is saved beside it.
  const editorAnswer = answered && "editor" in answered ? (answered as EditorAnswer).editor : undefined;
  const [drawn, setDrawn] = useState(editorAnswer);
  if (editorAnswer && editorAnswer.formKey !== drawn?.formKey) setDrawn(editorAnswer);
  const values = drawn?.values ?? loaderData.values;
  const errors = drawn?.errors ?? { page: {}, theme: {}, support: {}, wallGoal: {} };
  const formKey = drawn?.formKey ?? "editor";
  const dirty = useUnsavedChanges(form, formKey, drawn?.refused ?? false);
  const blocker = useLeaveGuard(dirty);
  const savingPackages = submitting !== null && (PACKAGE_INTENTS as readonly string[]).includes(submitting);
  const saving = submitting !== null && !savingPackages;
  const errorCount = countEditorErrors(errors);
  const refusal = drawn?.message ?? (errorCount > 0 ? `Nothing was saved: ${errorCount === 1 ? "one field needs" : `${errorCount} fields need`} a change, shown beside ${errorCount === 1 ? "it" : "each"}.` : undefined);
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
          <Form key={formKey} ref={form} id="bio-editor" method="post" noValidate preventScrollReset aria-label="Your page" className="mt-8">
            {/* The first submit button is the one Enter presses: saving, not the first link row's "Remove". */}
            <button type="submit" name="intent" value="save" tabIndex={-1} aria-hidden="true" className="sr-only">
              Save changes
            </button>
            <BioPageFields
              values={values.page}
              errors={errors.page}
              choices={loaderData.choices}
              options={loaderData.options}
              bioOrigin={loaderData.bioOrigin}
              fixedEnding={loaderData.page.customEnding}
              locale={loaderData.locale}
            />
            <SupportSettings values={values.support} errors={errors.support} takesPayments={loaderData.support.takesPayments} pageName={values.page.name} />
            <section id="look" className="mt-12 scroll-mt-6 border-t border-ink/15 pt-10">
              <ThemePicker initial={values.theme} errors={errors.theme} />
            </section>
            <WallAndGoalSettings
              values={values.wallGoal}
              errors={errors.wallGoal}
              hasGoal={loaderData.wallGoal.hasGoal}
              progressText={loaderData.wallGoal.progressText}
              supportersHref={`/app/account/bizbio/${loaderData.page.id}/supporters`}
              busy={saving}
            />
            <EditorSaveBar dirty={dirty} busy={saving} refusal={refusal} />
          </Form>
          <section aria-labelledby="memberships-link-heading" className="mt-12 rounded-2xl border border-primary/15 bg-white p-5 shadow-sm sm:p-6">
            <h2 id="memberships-link-heading" className="text-xl font-bold">
              Memberships
            </h2>
            <p className="mt-2 text-muted">Fans who join a tier support you every month or year. Your page shows your tiers under Support.</p>
            <Link to={`/app/account/bizbio/${loaderData.page.id}/memberships`} className="mt-3 inline-block font-semibold">
              Edit membership tiers
            </Link>
          </section>
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
      <LeaveConfirm blocker={blocker} />
    </div>
  );
}
