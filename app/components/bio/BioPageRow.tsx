import { useEffect, useRef, useState } from "react";
import { Link, useFetcher, useLocation, useNavigate } from "react-router";
import { LocalDateTime } from "#app/components/opportunities/LocalDateTime";
import { useHydrated } from "#app/lib/use-hydrated";
import type { Blocker } from "#server/domains/bio/readiness";
import { BLOCKER_TEXT, blockerPath } from "./SetupChecklist";

/** What the dashboard's Yes gets back when it deletes from the page (a fetcher). */
export type DeleteAnswer = { kind: "SUCCESS" } | { kind: "ERROR"; message: string };

export type DashboardPage = {
  id: string;
  customEnding: string;
  name: string;
  updatedAt: string;
  views: number;
  /** What stops the page taking money (server/domains/bio/readiness.ts), null when it takes tips. */
  nextStep: Blocker | null;
};

/** "Takes tips", or what to do first so it can (the dashboard's checklist has every step). */
function MoneyStatus({ page }: { page: DashboardPage }) {
  if (page.nextStep === null) {
    return <p className="mt-2 inline-flex rounded-full bg-secondary px-3 py-0.5 text-sm font-semibold text-ink">Takes tips</p>;
  }
  return (
    <p className="mt-2 text-sm">
      <span className="font-semibold text-red-800">Can't take money yet:</span>{" "}
      <Link to={blockerPath(page.nextStep, page.id)}>
        {BLOCKER_TEXT[page.nextStep]}
        <span className="sr-only"> for {page.name}</span>
      </Link>
    </p>
  );
}

/** SPEC §9: 'Done!' stays for 2 seconds before the row goes. */
export const DONE_MS = 2000;

const action = "rounded-full border border-primary bg-white px-4 py-2 text-sm font-semibold text-primary no-underline hover:bg-primary/5";
const danger = "rounded-full border border-red-700 bg-white px-4 py-2 text-sm font-semibold text-red-700 no-underline hover:bg-red-50";

type Props = {
  page: DashboardPage;
  bioOrigin: string;
  locale: string;
  /** The server rendered this row's question already (?confirm=<id>, the no-JavaScript path). */
  confirming: boolean;
  /** Called once 'Done!' has been shown: the dashboard drops the row. */
  onGone: (id: string) => void;
};

/**
 * One page on the dashboard with its actions. Delete follows SPEC §4:
 * normal → confirming ('Are you sure? …', Yes / No) → deleting → 'Done!' for
 * 2 s → gone. Without JavaScript, Delete is a link to the dashboard with the
 * question asked (?confirm=), Yes a plain form and No a link back.
 */
export function BioPageRow({ page, bioOrigin, locale, confirming: askedByServer, onGone }: Props) {
  const hydrated = useHydrated();
  const location = useLocation();
  const navigate = useNavigate();
  const fetcher = useFetcher<DeleteAnswer>();
  const [asking, setAsking] = useState(askedByServer);
  const noRef = useRef<HTMLAnchorElement>(null);
  const deleteRef = useRef<HTMLAnchorElement>(null);
  const movedFocus = useRef(false);
  const address = `${bioOrigin}/${page.customEnding}`;
  const host = new URL(bioOrigin).host;
  const answer = fetcher.state === "idle" ? fetcher.data : undefined;
  const done = answer?.kind === "SUCCESS";
  const failed = answer?.kind === "ERROR" ? answer.message : null;
  const state = done ? "done" : fetcher.state !== "idle" ? "deleting" : asking && !failed ? "confirming" : "normal";

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => onGone(page.id), DONE_MS);
    return () => clearTimeout(timer);
  }, [done, onGone, page.id]);

  useEffect(() => {
    // Focus follows the question: onto No when it appears, back onto Delete when it goes.
    if (!movedFocus.current) return;
    if (state === "confirming") noRef.current?.focus();
    if (state === "normal") deleteRef.current?.focus();
  }, [state]);

  const ask = (event: React.MouseEvent) => {
    event.preventDefault();
    movedFocus.current = true;
    if (failed) fetcher.reset();
    setAsking(true);
  };
  const cancel = (event: React.MouseEvent) => {
    event.preventDefault();
    movedFocus.current = true;
    setAsking(false);
    if (failed) fetcher.reset();
    // A question the server asked (?confirm=) leaves the address too, so a reload doesn't ask again.
    if (new URLSearchParams(location.search).has("confirm")) void navigate("/app/account/bizbio", { replace: true, preventScrollReset: true });
  };

  return (
    <li className="rounded-2xl border border-ink/15 p-5 shadow-sm" aria-label={page.name}>
      <div className="flex flex-wrap items-start justify-between gap-x-6 gap-y-2">
        <div className="min-w-0">
          <h2 className="break-words text-xl font-bold">{page.name}</h2>
          <p className="break-all text-muted">
            {host}/<span className="font-semibold text-ink">{page.customEnding}</span>
          </p>
          <MoneyStatus page={page} />
        </div>
        <dl className="grid grid-cols-[auto_auto] gap-x-3 text-sm">
          <dt className="text-muted">Updated</dt>
          <dd>
            <LocalDateTime iso={page.updatedAt} serverLocale={locale} />
          </dd>
          <dt className="text-muted">Views</dt>
          <dd>{page.views.toLocaleString(locale)}</dd>
        </dl>
      </div>

      <div className="mt-4 flex flex-wrap items-center gap-2" aria-live="polite">
        {state === "normal" ? (
          <>
            {/* `?saved`: the bio host answers as of every committed change, so the owner sees their last save (ADR 0046). */}
            <a href={`${address}?saved`} target="_blank" rel="noopener noreferrer" className={action}>
              View<span className="sr-only"> {page.name} (opens in a new tab)</span>
            </a>
            <Link to={`/edit/${page.id}`} className={action}>
              Edit<span className="sr-only"> {page.name}</span>
            </Link>
            <Link to={`/app/account/bizbio/${page.id}/insights`} className={action}>
              Insights<span className="sr-only"> for {page.name}</span>
            </Link>
            <Link ref={deleteRef} to={`/app/account/bizbio?confirm=${page.id}`} onClick={ask} className={danger} preventScrollReset>
              Delete<span className="sr-only"> {page.name}</span>
            </Link>
            {failed ? (
              <p role="alert" className="basis-full text-sm font-medium text-red-700">
                {failed}
              </p>
            ) : null}
          </>
        ) : state === "confirming" ? (
          <fetcher.Form method="post" action="/app/account/bizbio/delete" className="flex flex-wrap items-center gap-2">
            <p className="basis-full font-semibold sm:basis-auto sm:pr-2">Are you sure? This can't be undone.</p>
            <input type="hidden" name="pageId" value={page.id} />
            {hydrated ? <input type="hidden" name="via" value="fetcher" /> : null}
            <button type="submit" className={danger}>
              Yes<span className="sr-only">, delete {page.name}</span>
            </button>
            <Link ref={noRef} to="/app/account/bizbio" onClick={cancel} className={action} preventScrollReset>
              No<span className="sr-only">, keep {page.name}</span>
            </Link>
          </fetcher.Form>
        ) : state === "deleting" ? (
          <p className="font-semibold text-muted">Loading...</p>
        ) : (
          <p className="font-semibold text-primary">Done!</p>
        )}
      </div>
    </li>
  );
}
