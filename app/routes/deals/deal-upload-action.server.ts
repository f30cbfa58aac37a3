import { redirect, type AppLoadContext } from "react-router";
import type { SessionUser } from "#server/domains/auth/session";
import { notificationDepsOf } from "#server/domains/notifications/deps";
import { saveDealBrief } from "#server/domains/deals/brief";
import { isFileRefusal } from "#server/domains/deals/files";
import { readDealUploadForm } from "#server/domains/deals/upload-form";
import { postDealMessageWithFiles, submitDeliverableWithScreenshot } from "#server/domains/deals/uploads";
import { answerRefusal, refuse } from "#page-kit/respond.server";
import { FORM_MESSAGES } from "#page-kit/form.server";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import type { DealActionData } from "./deal-action-data";

/**
 * The deal page's multipart forms, those that carry files: a message with attachments, the brief
 * with its assets, a deliverable with its screenshot. A refusal comes back to the deal page with
 * what was typed (files must be chosen again: a browser never refills a file field).
 */
export async function dealUploadAction(request: Request, context: AppLoadContext, user: SessionUser, dealId: string) {
  const form = await readDealUploadForm(request);
  if (form.kind === "ERROR") return answerRefusal<DealActionData>(form, { intent: "upload", message: form.message });
  const deps = { db: context.db, notifications: notificationDepsOf(context), processing: context.photos.processing };
  const intent = form.text("intent");
  if (intent === "message") {
    const body = form.text("body");
    const posted = await postDealMessageWithFiles(deps, { uid: user.id, dealId, body, files: form.files("files") });
    if (posted.kind === "SUCCESS") throw redirect(`/app/deals/${dealId}#message-${posted.seq}`);
    if (posted.code === "not-found") refuse("not-found", posted.message);
    const errors = posted.reason === "INVALID_FIELDS" ? posted.fieldErrors : {};
    return answerRefusal<DealActionData>(posted, { intent, errors, body, files: isFileRefusal(posted) ? posted.message : undefined });
  }
  if (intent === "brief") {
    const body = form.text("brief");
    const saved = await saveDealBrief(deps, { uid: user.id, dealId, body, files: form.files("files"), remove: form.texts("remove") });
    if (saved.kind === "SUCCESS") return redirectWithToast(request, context.sessionSecret, `/app/deals/${dealId}`, { kind: "success", message: saved.changed ? "Brief saved. The creator has been told." : "Nothing changed." });
    if (saved.code === "not-found") refuse("not-found", saved.message);
    return answerRefusal<DealActionData>(saved, { intent, brief: body, ...(saved.reason === "INVALID_FIELDS" ? { errors: { body: saved.fieldErrors.brief } } : { files: saved.message }) });
  }
  if (intent === "submit") {
    const deliverable = Number(form.text("deliverable"));
    const liveUrl = form.text("liveUrl");
    const note = form.text("note");
    const done = await submitDeliverableWithScreenshot(deps, { uid: user.id, dealId, deliverable, liveUrl, note, screenshot: form.files("screenshot")[0] ?? null });
    if (done.kind === "SUCCESS") return redirectWithToast(request, context.sessionSecret, `/app/deals/${dealId}`, { kind: "success", message: "Handed in. The sponsor has been told." });
    if (done.code === "not-found") refuse("not-found", done.message);
    const fieldErrors = done.reason === "INVALID_FIELDS" ? done.fieldErrors : {};
    const screenshot = isFileRefusal(done) ? done.message : undefined;
    return answerRefusal<DealActionData>(done, {
      intent,
      message: done.reason === "INVALID_FIELDS" || screenshot ? undefined : done.message,
      work: { intent, deliverable, errors: { ...fieldErrors, screenshot }, liveUrl, note },
    });
  }
  // No form of the page sends files without saying which it is: a hand-made request, told as the form reader tells one.
  refuse("invalid-argument", FORM_MESSAGES.malformed);
}
