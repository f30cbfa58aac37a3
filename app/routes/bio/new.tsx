import { Link, useNavigation } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { listOwnPages, MAX_PAGES_PER_OWNER } from "#server/domains/bio/pages";
import { NewPageForm } from "#app/components/bio/NewPageForm";
import { ProfilePhotoSection } from "#app/components/bio/ProfilePhotoSection";
import { profilePhotoOf } from "#server/domains/media/photos";
import { DEFAULT_NEW_PAGE_EXTRAS } from "#isomorphic/new-page";
import { FormNotice } from "#page-kit/forms";
import { localeFrom } from "#isomorphic/format";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/new";
import { editorContext, PAGE_LIMIT_MESSAGE } from "./editor.server";
import { newPageAction } from "./new-page.server";

const EMPTY_FORM = { name: "", customEnding: "", blurb: "", links: [{ type: "", url: "" }], sponsorships: [] };

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const owned = (await listOwnPages(context.db, user.id)).length;
  const photo = { name: user.name, photoId: await profilePhotoOf(context.db, user.id), returnTo: new URL(request.url).pathname };
  return { ...(await editorContext(context, user.id)), photo, firstPage: owned === 0, atLimit: owned >= MAX_PAGES_PER_OWNER, limitMessage: PAGE_LIMIT_MESSAGE, locale: localeFrom(request.headers.get("Accept-Language")) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireVerifiedUser(request, context);
  return newPageAction(request, context, user);
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "New bio page" });

export default function NewBioPage({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:py-14 lg:max-w-6xl">
      <Link to="/app/account/bizbio" className="text-sm font-semibold">
        ← Your Pages
      </Link>
      <h1 className="mt-4 text-3xl font-bold">New bio page</h1>
      <p className="mt-2 text-muted">One address for everything you do: your links, your story and the sponsorships you offer.</p>
      {loaderData.firstPage ? (
        <p className="mt-3 rounded-xl bg-primary/5 px-4 py-3 text-sm">
          Your photo, your page's name, address, links, look and tips, all here, with the preview showing what fans will see. Then a short
          checklist takes you through payouts and sharing your link, and brings you back after each step.
        </p>
      ) : null}
      {loaderData.atLimit && !actionData ? (
        <div className="mt-8">
          <FormNotice kind="info">{loaderData.limitMessage}</FormNotice>
        </div>
      ) : (
        <NewPageForm
          key={actionData?.formKey ?? "form"}
          values={actionData?.values ?? EMPTY_FORM}
          extras={actionData?.extras ?? DEFAULT_NEW_PAGE_EXTRAS}
          errors={actionData?.errors ?? {}}
          message={actionData?.message}
          choices={loaderData.choices}
          options={loaderData.options}
          bioOrigin={loaderData.bioOrigin}
          photoId={loaderData.photo.photoId}
          busy={busy}
          locale={loaderData.locale}
          photo={<ProfilePhotoSection {...loaderData.photo} />}
        />
      )}
    </div>
  );
}
