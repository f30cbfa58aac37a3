import { Form, Link } from "react-router";
import { readUnsubscribeLink, unsubscribe } from "#server/domains/notifications/unsubscribe";
import { unsubscribeSigningKey } from "#server/domains/notifications/unsubscribe-token";
import { FormNotice, primaryButton } from "#page-kit/forms";
import { readForm } from "#page-kit/form.server";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/unsubscribe";
import { answerRefusal } from "#page-kit/respond.server";

type PageData = { label: string | null; error: string | null; done: boolean };

/**
 * The link in every notification mail (ADR 0025), open signed out: GET shows
 * what it would turn off with a confirm button (link scanners that open every
 * URL change nothing); POST turns it off. A mail client's one-click POST
 * (RFC 8058, body List-Unsubscribe=One-Click) lands on the same action and
 * gets the same 200 page; server/main/app.ts exempts this path from the
 * cross-site-write guard for it.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const target = readUnsubscribeLink(unsubscribeSigningKey(context.sessionSecret), params.token);
  if (target.kind === "ERROR") return answerRefusal<PageData>(target, { label: null, error: target.message, done: false });
  return { label: target.label, error: null, done: false } satisfies PageData;
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const read = await readForm(request);
  if (read.kind === "ERROR") return answerRefusal<PageData>(read, { label: null, error: read.message, done: false });
  const result = await unsubscribe(context.db, unsubscribeSigningKey(context.sessionSecret), params.token);
  if (result.kind === "ERROR") return answerRefusal<PageData>(result, { label: null, error: result.message, done: false });
  context.logger.info({ kind: result.notificationKind, oneClick: read.form.get("List-Unsubscribe") === "One-Click" }, "notification mail unsubscribed");
  return { label: result.label, error: null, done: true } satisfies PageData;
}

// The token is a permission: never cached, never sent on as a Referer.
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" });

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Unsubscribe", noindex: true });

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const shown = actionData ?? loaderData;
  return (
    <div className="mx-auto max-w-xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold">Unsubscribe</h1>
      <div className="mt-6 space-y-4">
        {shown.error ? (
          <>
            <FormNotice>{shown.error}</FormNotice>
            <p>
              <Link to="/app/account#notifications">Notification settings in My Account</Link>
            </p>
          </>
        ) : shown.done ? (
          <>
            <FormNotice kind="success">{`You're unsubscribed: we won't email you about “${shown.label}” any more. You still see these notifications in the app.`}</FormNotice>
            <p>
              Changed your mind? <Link to="/app/account#notifications">Choose your emails in My Account</Link>.
            </p>
          </>
        ) : (
          <>
            <p>{`Stop emails about “${shown.label}”? You will still see these notifications in the app.`}</p>
            <Form method="post">
              <button type="submit" name="intent" value="unsubscribe" className={primaryButton}>
                Unsubscribe
              </button>
            </Form>
          </>
        )}
      </div>
    </div>
  );
}
