import { Form, Link, useNavigation } from "react-router";
import { sendNewMemberLinks } from "#server/domains/memberships/member-actions";
import { FormNotice, primaryButton } from "#page-kit/forms";
import { readForm } from "#page-kit/form.server";
import { pageMeta } from "#page-kit/meta";
import { answerRefusal } from "#page-kit/respond.server";
import { memberActionDepsOf } from "./manage.server";
import type { Route } from "./+types/manage-new-links";

type ActionData = { sent: string | null; error: string | null };

/**
 * "Send me a new link" (`/membership/<token>/new-links`), signed out as the member page is. No
 * loader on purpose: once the new link is mailed this page's own link stops working, and the
 * answer must still be shown. GET asks first (link scanners change nothing), POST does it.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const read = await readForm(request);
  if (read.kind === "ERROR") return answerRefusal<ActionData>(read, { sent: null, error: read.message });
  const result = await sendNewMemberLinks(context.db, memberActionDepsOf(context), params.token, { publicOrigin: context.config.PUBLIC_ORIGIN });
  if (result.kind === "ERROR") return answerRefusal<ActionData>(result, { sent: null, error: result.message });
  return { sent: result.message, error: null } satisfies ActionData;
}

// The token is a permission: never cached, never sent on as a Referer.
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" });

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "A new member link", noindex: true });

export default function NewMemberLinks({ actionData, params }: Route.ComponentProps) {
  const sending = useNavigation().state !== "idle";
  const back = `/membership/${params.token}`;
  return (
    <div className="mx-auto max-w-xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold">A new member link</h1>
      <div className="mt-6 space-y-4">
        {actionData?.sent ? (
          <>
            <FormNotice kind="success">{actionData.sent}</FormNotice>
            <p>Open the link in that email to manage your membership from now on.</p>
          </>
        ) : (
          <>
            {actionData?.error ? <FormNotice>{actionData.error}</FormNotice> : null}
            <p>
              We'll email a new link to the address of this membership. Every earlier link stops working, this one included, so anyone you forwarded an
              email to can no longer open your membership.
            </p>
            <Form method="post" className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center">
              <button type="submit" name="intent" value="new-links" disabled={sending} className={primaryButton}>
                {sending ? "Sending…" : "Email me a new link"}
              </button>
              <Link to={back}>Back to my membership</Link>
            </Form>
          </>
        )}
      </div>
    </div>
  );
}
