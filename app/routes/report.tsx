import { Form, Link } from "react-router";
import { getSessionUser } from "#server/domains/auth/session";
import { reportQuery, reportTarget, REPORT_THANKS, submitReport, type ReportFieldErrors } from "#server/domains/moderation/report";
import { formText } from "#app/lib/identity.server";
import { FormNotice, primaryButton, SelectField, TextArea, TextField } from "#page-kit/forms";
import { pageMeta } from "#page-kit/meta";
import { answerRefusal, answerRetryLater, refuse, refuseWith, requireForm } from "#page-kit/respond.server";
import { REPORT_NOTE_MAX, REPORT_REASONS } from "#isomorphic/report-reasons";
import type { Route } from "./+types/report";

/**
 * The report form for a bio page or an opportunity (ADR 0050): open to guests, works without
 * JavaScript, and answers with the page itself (no redirect, no toast), so a guest gets no cookie.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const asked = reportQuery(new URL(request.url).searchParams);
  if (!asked) refuse("not-found");
  const found = await reportTarget(context.db, asked.type, asked.address);
  if (found.kind === "ERROR") refuseWith(found);
  const viewer = await getSessionUser(request, context);
  return { target: found.target, accountEmail: viewer?.email ?? null, bioOrigin: context.config.BIO_ORIGIN };
}

type ActionData = { thanks: string | null; fieldErrors: ReportFieldErrors; message: string | null; values: { reason: string; note: string; email: string } };

export async function action({ request, context }: Route.ActionArgs) {
  const asked = reportQuery(new URL(request.url).searchParams);
  if (!asked) refuse("not-found");
  const form = await requireForm(request);
  const viewer = await getSessionUser(request, context);
  const values = { reason: formText(form, "reason"), note: formText(form, "note"), email: formText(form, "email") };
  const result = await submitReport(context.db, { ...asked, ...values }, { ip: context.clientIp, account: viewer ? { id: viewer.id, email: viewer.email } : null });
  if (result.kind === "SUCCESS") return { thanks: REPORT_THANKS, fieldErrors: {}, message: null, values } satisfies ActionData;
  const payload: ActionData = { thanks: null, fieldErrors: "fieldErrors" in result ? result.fieldErrors : {}, message: "fieldErrors" in result ? null : result.message, values };
  if ("retryAfterSeconds" in result) return answerRetryLater(result, payload);
  if (result.code === "not-found") refuseWith(result);
  return answerRefusal(result, payload);
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Report content", noindex: true });

export default function Report({ loaderData, actionData }: Route.ComponentProps) {
  const { target, accountEmail, bioOrigin } = loaderData;
  const what = target.type === "bio_page" ? "bio page" : "opportunity";
  const href = target.type === "bio_page" ? `${bioOrigin}/${target.address}` : `/app/opportunities/${target.address}`;
  if (actionData?.thanks) {
    return (
      <div className="mx-auto max-w-xl px-4 py-10">
        <h1 className="text-3xl font-bold">Report received</h1>
        <div className="mt-6">
          <FormNotice kind="success">
            <p>{actionData.thanks}</p>
          </FormNotice>
        </div>
        <p className="mt-6">
          <a href={href}>Back to the {what}</a>
        </p>
      </div>
    );
  }
  const errors: ReportFieldErrors = actionData?.fieldErrors ?? {};
  return (
    <div className="mx-auto max-w-xl px-4 py-10">
      <h1 className="text-3xl font-bold">Report this {what}</h1>
      <p className="mt-2 text-muted">
        You are reporting the {what} <a href={href}>{target.title}</a>. Tell us which rule of our <Link to="/support/code-of-conduct">Code of Conduct</Link> it
        breaks; our <Link to="/support/reporting">Reporting Guidelines</Link> say what happens next. We never tell the owner who reported them.
      </p>
      {actionData?.message ? (
        <div className="mt-6">
          <FormNotice>{actionData.message}</FormNotice>
        </div>
      ) : null}
      <Form method="post" className="mt-6 grid gap-5">
        <SelectField label="What is wrong" name="reason" required defaultValue={actionData?.values.reason ?? ""} error={errors.reason}>
          <option value="" disabled>
            Choose a reason
          </option>
          {REPORT_REASONS.map((reason) => (
            <option key={reason} value={reason}>
              {reason}
            </option>
          ))}
        </SelectField>
        <TextArea
          label="What happened (optional)"
          name="note"
          rows={5}
          maxLength={REPORT_NOTE_MAX}
          defaultValue={actionData?.values.note ?? ""}
          error={errors.note}
          hint={`Up to ${REPORT_NOTE_MAX} characters: what you saw and why it breaks our rules.`}
        />
        {accountEmail ? (
          <p className="text-sm text-muted">{`We'll tell you the outcome at ${accountEmail}, your account's address.`}</p>
        ) : (
          <TextField
            label="Your email (optional)"
            name="email"
            type="email"
            autoComplete="email"
            defaultValue={actionData?.values.email ?? ""}
            error={errors.email}
            hint="Only to tell you the outcome. You don't need an account to report."
          />
        )}
        <div>
          <button type="submit" className={primaryButton}>
            Send report
          </button>
        </div>
      </Form>
    </div>
  );
}
