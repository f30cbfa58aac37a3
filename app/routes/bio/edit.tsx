import { Link, useNavigation } from "react-router";
import { requireVerifiedUser } from "#server/auth/session";
import { getOwnPage } from "#server/bio/pages";
import { BioPageForm } from "#app/components/bio/BioPageForm";
import { ProfilePhotoSection } from "#app/components/bio/ProfilePhotoSection";
import { profilePhotoOf } from "#server/media/photos";
import { localeFrom } from "#isomorphic/format";
import { pageMeta } from "#page-kit/meta";
import { refuseWith } from "#page-kit/respond.server";
import type { Route } from "./+types/edit";
import { bioEditorAction, editorContext } from "./editor.server";

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
    locale: localeFrom(request.headers.get("Accept-Language")),
    photo: { name: user.name, photoId: await profilePhotoOf(context.db, user.id), returnTo: `${new URL(request.url).pathname}${new URL(request.url).search}` },
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireVerifiedUser(request, context);
  return bioEditorAction(request, context, user.id, pageIdFrom(request, params));
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Edit bio page", noindex: true });

export default function EditBioPage({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
      <Link to="/app/account/bizbio" className="text-sm font-semibold">
        ← Your Pages
      </Link>
      <h1 className="mt-4 text-3xl font-bold">Edit bio page</h1>
      <ProfilePhotoSection {...loaderData.photo} />
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
        busy={busy}
        locale={loaderData.locale}
      />
    </div>
  );
}
