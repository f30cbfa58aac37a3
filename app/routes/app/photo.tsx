import { Link } from "react-router";
import { PhotoUpload, type PhotoActionData } from "#app/components/PhotoUpload";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { safeRedirectPath } from "#server/platform/http/redirects";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import { profilePhotoOf, removeProfilePhoto, setProfilePhoto } from "#server/domains/media/photos";
import { readPhotoForm } from "#server/domains/media/upload-form";
import { pageMeta } from "#page-kit/meta";
import { answerRefusal } from "#page-kit/respond.server";
import type { Route } from "./+types/photo";

/**
 * The profile photo form's address. The editor and My Account post here and
 * come back (returnTo); a refused upload without JavaScript shows this page
 * with the reason and the form again.
 */
function returnToOf(request: Request): string {
  return safeRedirectPath(new URL(request.url).searchParams.get("returnTo"), "/app/account");
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  return { name: user.name, photoId: await profilePhotoOf(context.db, user.id), returnTo: returnToOf(request) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireVerifiedUser(request, context);
  const form = await readPhotoForm(request);
  if (form.kind === "ERROR") return answerRefusal<PhotoActionData>(form, { error: form.message });
  const back = returnToOf(request);
  if (form.intent === "remove") {
    await removeProfilePhoto(context.db, user.id);
    return redirectWithToast(request, context.sessionSecret, back, { kind: "success", message: "Photo removed." });
  }
  const result = await setProfilePhoto({ db: context.db, processing: context.photos.processing }, user.id, form.file);
  if (result.kind === "ERROR") return answerRefusal<PhotoActionData>(result, { error: result.message });
  return redirectWithToast(request, context.sessionSecret, back, { kind: "success", message: "Photo saved." });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Profile photo", noindex: true });

export default function ProfilePhoto({ loaderData, actionData }: Route.ComponentProps) {
  const { name, photoId, returnTo } = loaderData;
  return (
    <div className="mx-auto max-w-2xl px-4 py-10 sm:py-14">
      <Link to={returnTo} className="text-sm font-semibold">
        ← Back
      </Link>
      <h1 className="mt-4 text-3xl font-bold">Profile photo</h1>
      <p className="mt-2 text-muted">One photo for all your bio pages, the profiles directory and the top of the site.</p>
      <div className="mt-8">
        <PhotoUpload name={name} photoId={photoId} returnTo={returnTo} error={actionData?.error} />
      </div>
    </div>
  );
}
