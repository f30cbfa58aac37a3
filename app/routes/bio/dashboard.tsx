import { useCallback, useRef, useState } from "react";
import { Link, type ShouldRevalidateFunctionArgs } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { MAX_PAGES_PER_OWNER } from "#server/domains/bio/pages";
import { bioPageAddress, qrSvg } from "#server/domains/bio/qr";
import { listBioPages } from "#server/features/operations/bio-pages/list";
import { pageCaller, runForPage } from "#app/lib/operation-door.server";
import { BioPageRow } from "#app/components/bio/BioPageRow";
import { SetupChecklist } from "#app/components/bio/SetupChecklist";
import { primaryButton } from "#page-kit/forms";
import { refuseWith } from "#page-kit/respond.server";
import { localeFrom } from "#isomorphic/format";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/dashboard";
import { PAGE_LIMIT_MESSAGE } from "./editor.server";

/** Your Pages: the listBioPages operation (server/features/operations/bio-pages/list.ts); the checklist and QR code are the page's. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const listed = await runForPage(listBioPages, { caller: pageCaller(user), input: {}, context });
  if (listed.kind === "ERROR") refuseWith(listed);
  const { pages } = listed;
  // The checklist is about the first listed page not fully set up (the last one updated); it stays until every step is done.
  const unready = pages.find((page) => !page.setup.complete);
  const address = unready ? bioPageAddress(context.config.BIO_ORIGIN, unready.customEnding) : null;
  return {
    pages: pages.map((page) => ({
      id: page.id,
      customEnding: page.customEnding,
      name: page.name,
      updatedAt: page.updatedAt.toISOString(),
      views: page.views,
      nextStep: page.readiness.nextStep,
    })),
    checklist:
      unready && address
        ? {
            page: { id: unready.id, name: unready.name },
            done: unready.setup.done,
            doneCount: unready.setup.doneCount,
            ownerActive: unready.readiness.ownerActive,
            address,
            qrSvg: await qrSvg(address),
          }
        : null,
    confirm: new URL(request.url).searchParams.get("confirm"),
    bioOrigin: context.config.BIO_ORIGIN,
    maxPages: MAX_PAGES_PER_OWNER,
    limitMessage: PAGE_LIMIT_MESSAGE,
    locale: localeFrom(request.headers.get("Accept-Language")),
  };
}

/** A delete from the page keeps its row on screen for 'Done!'; the row itself then goes (no reload needed). */
export function shouldRevalidate({ formAction, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formAction === "/app/account/bizbio/delete" ? false : defaultShouldRevalidate;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Your Pages" });

export default function BioDashboard({ loaderData }: Route.ComponentProps) {
  const { pages, confirm, bioOrigin, locale, maxPages, limitMessage, checklist } = loaderData;
  const [gone, setGone] = useState<ReadonlySet<string>>(new Set());
  const heading = useRef<HTMLHeadingElement>(null);
  const onGone = useCallback((id: string) => {
    setGone((current) => new Set(current).add(id));
    // The row that had focus is gone: focus goes back to the top of the list, not to the page's start.
    heading.current?.focus();
  }, []);
  const shown = pages.filter((page) => !gone.has(page.id));
  const atLimit = shown.length >= maxPages;
  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:py-14">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 ref={heading} tabIndex={-1} className="text-3xl font-bold focus:outline-none">
            Your Pages
          </h1>
          <p className="mt-2 text-muted">Link-in-bio pages with your links and the sponsorships you offer, each at its own address.</p>
        </div>
        {atLimit ? (
          <button type="button" className={primaryButton} disabled aria-describedby="page-limit">
            New
          </button>
        ) : (
          <Link to="/app/account/bizbio/new" className={`${primaryButton} no-underline`}>
            New
          </Link>
        )}
      </div>
      {atLimit ? (
        <p id="page-limit" className="mt-3 text-sm text-muted">
          {limitMessage}
        </p>
      ) : null}

      {checklist && shown.some((page) => page.id === checklist.page.id) ? (
        <div className="mt-8">
          <SetupChecklist {...checklist} />
        </div>
      ) : null}

      {shown.length === 0 ? (
        <div className="mt-8 rounded-2xl bg-primary/5 p-6">
          <p className="text-lg font-semibold">You don't have any bio pages yet.</p>
          <p className="mt-1 text-muted">Make one page for your links, your story and the sponsorships you offer, and share its address everywhere.</p>
          <Link to="/app/account/bizbio/new" className={`${primaryButton} mt-4 no-underline`}>
            Create your first page
          </Link>
        </div>
      ) : (
        <ul className="mt-8 space-y-4" aria-label="Your bio pages">
          {shown.map((page) => (
            <BioPageRow key={page.id} page={page} bioOrigin={bioOrigin} locale={locale} confirming={confirm === page.id} onGone={onGone} />
          ))}
        </ul>
      )}
    </div>
  );
}
