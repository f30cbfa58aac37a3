import { useRef } from "react";
import { Link, useNavigation } from "react-router";
import { requireVerifiedUser } from "#server/auth/session";
import { getOwnPage } from "#server/bio/pages";
import { themeFormValues } from "#server/bio/theme";
import { BioPageForm } from "#app/components/bio/BioPageForm";
import { PhonePreview } from "#app/components/bio/PhonePreview";
import { ThemePicker } from "#app/components/bio/ThemePicker";
import { themeOf } from "#isomorphic/bio-theme";
import { localeFrom } from "#isomorphic/format";
import { pageMeta } from "#page-kit/meta";
import { refuseWith } from "#page-kit/respond.server";
import type { Route } from "./+types/edit";
import { bioEditorAction, editorContext } from "./editor.server";
import { bioThemeAction } from "./theme-action.server";

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
  return {
    ...(await editorContext(context, user.id)),
    page: { id: page.id, customEnding: page.customEnding },
    values: { name: page.name, customEnding: page.customEnding, blurb: page.blurb, links: page.links, sponsorships: page.sponsorships },
    theme: themeFormValues(themeOf(page.theme)),
    locale: localeFrom(request.headers.get("Accept-Language")),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireVerifiedUser(request, context);
  return bioEditorAction(request, context, user.id, pageIdFrom(request, params), { theme: bioThemeAction });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Edit bio page", noindex: true });

/**
 * The forms on the left, the page as visitors will see it on the right (on
 * a phone: below the forms, a link away), kept in view while the forms scroll.
 */
export default function EditBioPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const forms = useRef<HTMLDivElement>(null);
  const pageForm = actionData && "values" in actionData ? actionData : undefined;
  const themeForm = actionData && "theme" in actionData ? actionData.theme : undefined;
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
          <BioPageForm
            key={pageForm?.formKey ?? "form"}
            values={pageForm?.values ?? loaderData.values}
            errors={pageForm?.errors ?? {}}
            message={pageForm?.message}
            choices={loaderData.choices}
            options={loaderData.options}
            bioOrigin={loaderData.bioOrigin}
            fixedEnding={loaderData.page.customEnding}
            submitLabel="Save changes"
            busy={Boolean(submitting) && submitting !== "theme"}
            locale={loaderData.locale}
          />
          <section id="look" className="mt-12 scroll-mt-6 border-t border-ink/15 pt-10">
            <ThemePicker key={themeForm?.formKey ?? "theme"} initial={themeForm?.values ?? loaderData.theme} errors={themeForm?.errors ?? {}} busy={submitting === "theme"} />
          </section>
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
