import { Form, Link, useNavigation } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { listSupporters, setHiddenFromWall } from "#server/domains/bio/wall";
import { SUPPORTERS_LIST_SIZE, WALL_SIZE } from "#isomorphic/supporter-wall";
import { NO_NAME_GIVEN, SUPPORTERS_PATH } from "#isomorphic/supporters";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import { formText } from "#app/lib/identity.server";
import { dateTimeFormat, formatMoney, localeFrom } from "#isomorphic/format";
import { secondaryButton } from "#page-kit/forms";
import { pageMeta } from "#page-kit/meta";
import { refuseWith, requireForm } from "#page-kit/respond.server";
import type { Route } from "./+types/supporters";

// The words of the status badges on Supporters and My Sponsorships.
const STATUS_LABELS: Record<string, string> = { completed: "Completed", refunded: "Refunded", disputed: "Disputed" };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const result = await listSupporters(context.db, { uid: user.id }, params.pageId);
  if (result.kind === "ERROR") refuseWith(result);
  const { page, supporters } = result.list;
  const dates = dateTimeFormat(localeFrom(request.headers.get("Accept-Language")), "longDateUtc");
  return {
    page,
    supporters: supporters.map((s) => ({
      id: s.id,
      name: s.name,
      message: s.message,
      amount: formatMoney(s.amount, s.currency),
      status: STATUS_LABELS[s.status] ?? s.status,
      private: s.private,
      hidden: s.hidden,
      onWall: s.onWall,
      date: dates.format(s.at),
    })),
  };
}

/** Hide or Show one supporter on the page's wall: the owner's own only (anyone else's is "not found"). */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireVerifiedUser(request, context);
  const form = await requireForm(request);
  const intent = formText(form, "intent");
  if (intent !== "hide" && intent !== "show") refuseWith({ code: "invalid-argument", message: "Choose Hide or Show." });
  const result = await setHiddenFromWall(context.db, { uid: user.id }, { pageId: params.pageId, sessionId: formText(form, "session"), hidden: intent === "hide" });
  if (result.kind === "ERROR") refuseWith(result);
  const url = new URL(request.url);
  return redirectWithToast(request, context.sessionSecret, url.pathname, {
    kind: "success",
    message: result.hidden ? "Hidden from your supporter wall." : "Shown on your supporter wall again.",
  });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: args.data ? `Supporter wall: ${args.data.page.name}` : "Supporter wall", noindex: true });

export default function Supporters({ loaderData }: Route.ComponentProps) {
  const { page, supporters } = loaderData;
  const busy = useNavigation().state === "submitting";
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
      <Link to={`/app/account/bizbio/edit?page=${page.id}`} className="text-sm font-semibold">
        ← Edit {page.name}
      </Link>
      <p className="mt-4 text-sm font-semibold uppercase tracking-wide text-primary">Supporter wall</p>
      <h1 className="text-3xl font-bold leading-tight">{page.name}</h1>
      <p className="mt-2 text-muted">
        {page.wallEnabled
          ? `Your page's supporter wall shows the ${WALL_SIZE} latest paid supports that are not hidden. Hide any of them here; Show puts it back.`
          : "Your supporter wall is off. You can still choose who would be on it, then turn it on in the editor."}{" "}
        Every payment, with Refund and the CSV, is on <Link to={SUPPORTERS_PATH}>Supporters</Link>.
      </p>
      {supporters.length === 0 ? (
        <div className="mt-8 rounded-xl bg-secondary/40 px-4 py-6 text-center">
          <p className="font-semibold">No supporters yet</p>
          <p className="mt-1 text-sm text-muted">Each payment through your page shows here, with the name and message the supporter gave.</p>
        </div>
      ) : (
        <>
          <ul aria-label="Supporters" className="mt-8 space-y-3">
            {supporters.map((s) => (
              <li key={s.id} className="rounded-2xl border border-primary/15 bg-white p-4 shadow-sm">
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <div className="min-w-0 flex-1">
                    <p className="font-semibold break-words">
                      {s.name ?? NO_NAME_GIVEN}
                      <span className="ml-2 font-normal text-muted">
                        {s.amount} · {s.date}
                      </span>
                    </p>
                    <p className="mt-1 whitespace-pre-line break-words">{s.message}</p>
                    <p className="mt-2 text-sm text-muted">
                      {s.status}
                      {s.private ? " · Asked to stay private (the wall shows “A private supporter”)" : ""}
                      {s.hidden ? " · Hidden from the wall" : s.onWall ? "" : " · Not on the wall (refunded or disputed)"}
                    </p>
                  </div>
                  <Form method="post">
                    <input type="hidden" name="session" value={s.id} />
                    <button
                      type="submit"
                      name="intent"
                      value={s.hidden ? "show" : "hide"}
                      className={`${secondaryButton} px-4 py-2`}
                      disabled={busy}
                      aria-label={`${s.hidden ? "Show" : "Hide"} ${s.name ?? "supporter"} (${s.amount}, ${s.date})`}
                    >
                      {s.hidden ? "Show" : "Hide"}
                    </button>
                  </Form>
                </div>
              </li>
            ))}
          </ul>
          {supporters.length >= SUPPORTERS_LIST_SIZE ? <p className="mt-4 text-sm text-muted">The {SUPPORTERS_LIST_SIZE} latest supports are listed.</p> : null}
        </>
      )}
    </div>
  );
}
