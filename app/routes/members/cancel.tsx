import { Form, Link } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { cancelMemberOperation, readMember } from "#server/features/operations/payments/members";
import { pageCaller, runForPage } from "#app/lib/operation-door.server";
import { safeRedirectPath } from "#server/platform/http/redirects";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import { formText } from "#app/lib/identity.server";
import { MemberStateBadge } from "#app/components/members/MemberRow";
import { CANCEL_MESSAGE_MAX, cancelMemberPath, MEMBERS_PATH, memberRowId } from "#isomorphic/members";
import { NO_NAME_GIVEN } from "#isomorphic/supporters";
import { FormNotice, TextArea } from "#page-kit/forms";
import { pageMeta } from "#page-kit/meta";
import { answerRefusal, requireForm } from "#page-kit/respond.server";
import type { Route } from "./+types/cancel";
import { memberView } from "./view.server";

type CancelAnswer = { message: string; fieldError: string | null; formError: string | null };

/**
 * Cancel a member: the question as a page of its own (it asks for an optional message, so it works
 * the same without JavaScript). The owner of the member's page only; anyone else's is not found.
 * The readMember and cancelMember operations (server/features/operations/payments/members.ts).
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const found = await runForPage(readMember, { caller: pageCaller(user), input: { membershipId: params.membershipId }, context });
  const back = safeRedirectPath(new URL(request.url).searchParams.get("returnTo"), `${MEMBERS_PATH}#${memberRowId(found.member.id)}`);
  return { member: memberView(found.member), returnTo: back };
}

/**
 * POST: ends the membership now at the provider, with no further charge and no refund, and mails the
 * member the message (server/domains/memberships/creator-actions.ts); back to the list with a toast.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireVerifiedUser(request, context);
  const form = await requireForm(request);
  const message = formText(form, "message");
  const back = safeRedirectPath(formText(form, "returnTo"), MEMBERS_PATH);
  // Someone else's member, or none, is the 404 page (runForPage), as the question's page is.
  const result = await runForPage(cancelMemberOperation, { caller: pageCaller(user), input: { membershipId: params.membershipId, message }, context });
  if (result.kind === "ERROR") {
    const fieldError = "fieldErrors" in result ? result.fieldErrors.message : null;
    return answerRefusal<CancelAnswer>(result, { message, fieldError, formError: fieldError ? null : result.message });
  }
  const toast = result.alreadyCancelled ? "This membership was already cancelled." : "Membership cancelled. They won't be charged again, and we emailed them.";
  return redirectWithToast(request, context.sessionSecret, back, { kind: "success", message: toast });
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Cancel membership", noindex: true });

export default function CancelMember({ loaderData, actionData }: Route.ComponentProps) {
  const { member, returnTo } = loaderData;
  const name = member.name ?? member.email ?? NO_NAME_GIVEN;
  return (
    <div className="mx-auto max-w-xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold">Cancel membership</h1>
      <p className="mt-2 flex flex-wrap items-center gap-2 text-muted">
        <span>
          {name} · {member.tierName} · {member.price}
        </span>
        <MemberStateBadge state={member.state} />
      </p>
      {member.state === "ended" ? (
        <div className="mt-6">
          <FormNotice kind="info">This membership has already ended.</FormNotice>
          <p className="mt-4">
            <Link to={returnTo}>Back to your members</Link>
          </p>
        </div>
      ) : (
        <section aria-labelledby="cancel-question" className="mt-6 rounded-2xl border border-red-700/40 bg-red-50 p-5">
          <h2 id="cancel-question" className="text-xl font-bold">
            End {name}&rsquo;s membership now?
          </h2>
          <p className="mt-1 text-muted">
            It ends at once: they are no longer a member and are not charged again. What they paid so far is not refunded; each paid period has its own Refund button on your
            members list. We email them that you ended it, with your message.
          </p>
          {actionData?.formError ? (
            <div className="mt-4">
              <FormNotice>{actionData.formError}</FormNotice>
            </div>
          ) : null}
          <Form method="post" action={cancelMemberPath(member.id)} className="mt-4 space-y-4">
            <input type="hidden" name="returnTo" value={returnTo} />
            <TextArea
              label="Message to them (optional)"
              name="message"
              rows={4}
              maxLength={CANCEL_MESSAGE_MAX}
              defaultValue={actionData?.message ?? ""}
              error={actionData?.fieldError ?? undefined}
              hint={`Up to ${CANCEL_MESSAGE_MAX} characters, sent by email and shown on their member page.`}
            />
            <div className="flex flex-wrap gap-2">
              <button
                type="submit"
                className="inline-flex items-center justify-center rounded-full border border-red-700 bg-red-700 px-4 py-2 text-sm font-semibold text-white hover:bg-red-800"
              >
                End membership now
              </button>
              <Link
                to={returnTo}
                className="inline-flex items-center justify-center rounded-full border border-primary bg-white px-4 py-2 text-sm font-semibold text-primary no-underline hover:bg-primary/5"
              >
                Keep it
              </Link>
            </div>
          </Form>
        </section>
      )}
    </div>
  );
}
