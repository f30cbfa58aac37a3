import { Form, Link, useNavigation } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { previewPost, readComposeChoices, sendPost, type PostFieldErrors, type PostPreview } from "#server/domains/memberships/posts";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import { formText } from "#app/lib/identity.server";
import { MEMBERSHIP_LIMITS } from "#isomorphic/membership-limits";
import { FormNotice, primaryButton, secondaryButton, SelectField, TextArea, TextField } from "#page-kit/forms";
import { pageMeta } from "#page-kit/meta";
import { answerRefusal, answerRetryLater, requireForm } from "#page-kit/respond.server";
import type { Route } from "./+types/posts-new";

const POSTS_LIST_PATH = "/app/members/posts";

/** /app/members/posts/new: the creator's pages and tiers to choose who gets the post. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  return readComposeChoices(context.db, { uid: user.id });
}

type Values = { audience: string; subject: string; body: string };
type ActionData = { values: Values; errors: PostFieldErrors; message: string | null; preview: PostPreview | null };

/**
 * Two steps in one form, both plain posts (no JavaScript needed): Preview shows the mail and the
 * members' page with how many members would get it; Send (from the preview, carrying its post id)
 * sends it and goes to the sent posts.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireVerifiedUser(request, context);
  const form = await requireForm(request);
  const values: Values = { audience: formText(form, "audience"), subject: formText(form, "subject"), body: formText(form, "body") };
  if (formText(form, "intent") === "send") {
    const sent = await sendPost(context.db, { tasks: context.tasks }, { uid: user.id }, { ...values, postId: formText(form, "postId") });
    if (sent.kind === "SUCCESS") {
      const people = `${sent.recipientCount} member${sent.recipientCount === 1 ? "" : "s"}`;
      return redirectWithToast(request, context.sessionSecret, POSTS_LIST_PATH, { kind: "success", message: `Sent to ${people} (${sent.audienceLabel}, ${sent.pageName}).` });
    }
    if ("fieldErrors" in sent) return answerRefusal<ActionData>(sent, { values, errors: sent.fieldErrors, message: null, preview: null });
    if ("retryAfterSeconds" in sent) return answerRetryLater<ActionData>(sent, { values, errors: {}, message: sent.message, preview: null });
    return answerRefusal<ActionData>(sent, { values, errors: {}, message: sent.message, preview: null });
  }
  const previewed = await previewPost(context.db, { uid: user.id }, values);
  if (previewed.kind === "ERROR") return answerRefusal<ActionData>(previewed, { values, errors: previewed.fieldErrors, message: null, preview: null });
  return { values, errors: {}, message: null, preview: previewed.preview } satisfies ActionData;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Write to your members", noindex: true });

export default function NewPost({ loaderData, actionData }: Route.ComponentProps) {
  const { pages } = loaderData;
  const busy = useNavigation().state === "submitting";
  const values = actionData?.values;
  const errors: PostFieldErrors = actionData?.errors ?? {};
  const preview = actionData?.preview ?? null;
  const hasErrors = Object.keys(errors).length > 0;
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
      <Link to={POSTS_LIST_PATH} className="text-sm font-semibold">
        ← Sent posts
      </Link>
      <h1 className="mt-4 text-3xl font-bold">Write to your members</h1>
      <p className="mt-2 text-muted">
        Your post goes by email to every current member you choose, and stays on their members' page. Members who turned posts' email off still read it there. You can send{" "}
        {MEMBERSHIP_LIMITS.postsPerDay} posts in 24 hours.
      </p>
      {pages.length === 0 ? (
        <div className="mt-6">
          <FormNotice kind="info">
            You have no bio page yet, so no members to write to. <Link to="/app/account/bizbio/new">Make your page</Link> and offer memberships on it first.
          </FormNotice>
        </div>
      ) : (
        <>
          {actionData?.message ? (
            <div className="mt-6">
              <FormNotice>{actionData.message}</FormNotice>
            </div>
          ) : hasErrors ? (
            <div className="mt-6">
              <FormNotice>Please correct the fields marked below.</FormNotice>
            </div>
          ) : null}
          <Form method="post" noValidate className="mt-8 space-y-6">
            <SelectField label="Who gets it" name="audience" defaultValue={values?.audience ?? `page:${pages[0]!.id}`} error={errors.audience} aria-required="true">
              {pages.map((page) => (
                <optgroup key={page.id} label={page.name}>
                  <option value={`page:${page.id}`}>{`All members of ${page.name}`}</option>
                  {page.tiers.map((tier) => (
                    <option key={tier.id} value={`tier:${tier.id}`}>
                      {`${tier.name} members only${tier.status === "active" ? "" : ` (${tier.status})`}`}
                    </option>
                  ))}
                </optgroup>
              ))}
            </SelectField>
            <TextField label="Subject" name="subject" defaultValue={values?.subject} error={errors.subject} aria-required="true" maxLength={MEMBERSHIP_LIMITS.postSubjectMax} />
            <TextArea
              label="Your post"
              name="body"
              rows={10}
              defaultValue={values?.body}
              error={errors.body}
              aria-required="true"
              maxLength={MEMBERSHIP_LIMITS.postBodyMax}
              hint="Plain text. Leave an empty line between paragraphs."
            />
            <button type="submit" name="intent" value="preview" className={preview ? secondaryButton : primaryButton} disabled={busy}>
              {preview ? "Preview again" : "Preview"}
            </button>
          </Form>
          {preview ? <PreviewAndSend preview={preview} busy={busy} /> : null}
        </>
      )}
    </div>
  );
}

function Paragraphs({ paragraphs }: { paragraphs: string[] }) {
  return (
    <div className="space-y-3">
      {paragraphs.map((paragraph, index) => (
        <p key={index} className="whitespace-pre-line break-words">
          {paragraph}
        </p>
      ))}
    </div>
  );
}

function PreviewAndSend({ preview, busy }: { preview: PostPreview; busy: boolean }) {
  const people = `${preview.recipientCount} member${preview.recipientCount === 1 ? "" : "s"}`;
  return (
    <section aria-labelledby="preview-heading" className="mt-10 space-y-6">
      <h2 id="preview-heading" className="text-2xl font-bold">
        Preview
      </h2>
      <p data-testid="recipient-count">
        {preview.recipientCount === 0
          ? `Nobody would get this email now: ${preview.audienceLabel} of ${preview.pageName} has no current member who gets posts by email.`
          : `${people} of ${preview.pageName} (${preview.audienceLabel}) will get this email.`}
      </p>
      <article aria-label="The email" className="rounded-2xl border border-ink/15 p-4 sm:p-6">
        <p className="text-sm text-muted">Email</p>
        <p className="mt-1 break-words font-semibold">{`Subject: ${preview.pageName}: ${preview.subject}`}</p>
        <h3 className="mt-4 break-words text-xl font-bold">{preview.subject}</h3>
        <p className="mt-2 text-muted">{`From ${preview.pageName}, for its members:`}</p>
        <div className="mt-3">
          <Paragraphs paragraphs={preview.paragraphs} />
        </div>
        <p className="mt-4 font-semibold">Read it on your members' page →</p>
        <p className="mt-4 text-sm text-muted">{`You get this email because you are a member of ${preview.pageName}. Receipts for your membership still come if you stop posts. · Stop emails of posts`}</p>
      </article>
      <article aria-label="The members' page" className="rounded-2xl border border-ink/15 p-4 sm:p-6">
        <p className="text-sm text-muted">{`Members' page of ${preview.pageName}`}</p>
        <h3 className="mt-2 break-words text-xl font-bold">{preview.subject}</h3>
        <p className="mt-1 text-sm text-muted">{`For ${preview.audienceLabel.toLowerCase()}`}</p>
        <div className="mt-3">
          <Paragraphs paragraphs={preview.paragraphs} />
        </div>
      </article>
      <Form method="post">
        <input type="hidden" name="audience" value={preview.audience} />
        <input type="hidden" name="subject" value={preview.subject} />
        <input type="hidden" name="body" value={preview.body} />
        <input type="hidden" name="postId" value={preview.postId} />
        <button type="submit" name="intent" value="send" className={primaryButton} disabled={busy || preview.recipientCount === 0}>
          {busy ? "Sending..." : `Send to ${people}`}
        </button>
      </Form>
    </section>
  );
}
