import { redirect, type AppLoadContext } from "react-router";
import type { DealActionData } from "./deal-action-data";
import type { SessionUser } from "#server/domains/auth/session";
import type { DealMove } from "#server/domains/deals/act";
import { parseTerms, termsFormOf } from "#server/domains/deals/terms-form";
import { moveDeal } from "#server/features/operations/deals/write";
import { pageCaller, runForPage } from "#app/lib/operation-door.server";
import { formText } from "#app/lib/identity.server";
import { answerRefusal, refuse, requireForm } from "#page-kit/respond.server";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import { postDealMessage } from "#server/features/operations/deals/thread";
import { startDealFunding } from "#server/domains/deals/funding";
import { providerCheckoutUrl } from "#server/domains/payments/checkout/start-checkout";
import { reviewDeliverable, submitDeliverable } from "#server/features/operations/deals/work";
import { refundCancelledDeal } from "#server/domains/deals/refunds";
import { isMultipartForm } from "#server/domains/deals/upload-form";
import { dealUploadAction } from "./deal-upload-action.server";

const DONE: Record<DealMove["action"], string | null> = {
  counter: "Your terms were sent.",
  accept: "Terms accepted.",
  decline: "Declined. They have been told.",
  withdraw: "You withdrew from this deal.",
  shortlist: null,
  request_cancel: "You asked to cancel. The other side has been told.",
  agree_cancel: "The deal is cancelled. The sponsor's money is being refunded.",
  cancel_late: "The deal is cancelled. Your money is being refunded.",
  dispute: "Dispute opened. The money stays held until our staff decide.",
};

/** The deal page's form, by its `intent`, as one move of the deal (the moveDeal operation, server/features/operations/deals/write.ts). */
function moveOf(form: FormData): DealMove | { refused: DealActionData } {
  const intent = formText(form, "intent");
  switch (intent) {
    case "counter": {
      const fields = termsFormOf(form);
      const parsed = parseTerms(fields);
      if (parsed.kind === "ERROR") return { refused: { intent, errors: parsed.fieldErrors, terms: fields, message: "Please correct the terms marked below." } };
      return { action: "counter", terms: parsed.terms };
    }
    case "accept": {
      // A version that is no number is no version on the table: the deal answers that the terms changed.
      const version = Number(formText(form, "version"));
      return { action: "accept", version: Number.isSafeInteger(version) ? version : 0 };
    }
    case "decline":
      return { action: "decline", message: formText(form, "message") };
    case "withdraw":
      return { action: "withdraw" };
    case "shortlist":
      return { action: "shortlist", shortlisted: form.get("shortlisted") === "on" };
    case "request_cancel":
      return { action: "request_cancel", reason: formText(form, "reason") };
    case "agree_cancel":
      return { action: "agree_cancel" };
    case "cancel_late":
      return { action: "cancel_late" };
    case "dispute":
      return { action: "dispute", reason: formText(form, "reason") };
    default:
      refuse("invalid-argument", "Unknown action");
  }
}

/** A message into the deal's thread (the postDealMessage operation): back to the thread, or the box again with why not. */
async function postMessage(context: AppLoadContext, user: SessionUser, dealId: string, body: string) {
  const posted = await runForPage(postDealMessage, { caller: pageCaller(user), input: { dealId, body }, context, notFound: "answer" });
  if (posted.kind === "SUCCESS") throw redirect(`/app/deals/${dealId}#message-${posted.seq}`);
  if (posted.code === "not-found") refuse("not-found", posted.message);
  return answerRefusal<DealActionData>(posted, { intent: "message", errors: posted.fieldErrors, body });
}

/** "Pay to book": off to the provider's hosted checkout for the agreed price, or back with why not. */
async function payToBook(context: AppLoadContext, user: SessionUser, dealId: string) {
  const started = await startDealFunding(context.db, context.payments, {
    uid: user.id,
    dealId,
    publicOrigin: context.config.PUBLIC_ORIGIN,
    feePercent: context.config.PLATFORM_FEE_PERCENT,
  });
  if (started.kind === "SUCCESS") {
    // The provider's hosted checkout, and only when it is one of its own pages: the one redirect off our paths.
    const url = providerCheckoutUrl(started.url, context.payments);
    if (url) throw redirect(url);
    return answerRefusal<DealActionData>({ code: "unavailable" }, { intent: "fund", message: "The checkout could not be opened. Please try again in a moment." });
  }
  if (started.code === "not-found") refuse("not-found", started.message);
  return answerRefusal<DealActionData>(started, { intent: "fund", message: started.message, reason: started.reason });
}

const WORK_DONE = { submit: "Handed in. The sponsor has been told.", approve: "Approved.", changes: "Sent back with your note." } as const;

/**
 * The work's forms: hand a deliverable in, approve it, or send it back (the submitDeliverable and
 * reviewDeliverable operations; the last approval also pays the creator, or leaves it to the sweep).
 */
async function workOn(request: Request, context: AppLoadContext, user: SessionUser, dealId: string, intent: keyof typeof WORK_DONE, form: FormData) {
  const typed = Number(formText(form, "deliverable"));
  // A place that is no whole number is no deliverable: the operation answers it as one that does not exist.
  const deliverable = Number.isSafeInteger(typed) ? typed : -1;
  const note = formText(form, "note");
  const liveUrl = formText(form, "liveUrl");
  const caller = pageCaller(user);
  const done =
    intent === "submit"
      ? await runForPage(submitDeliverable, { caller, input: { dealId, deliverable, liveUrl, note }, context, notFound: "answer" })
      : await runForPage(reviewDeliverable, { caller, input: { dealId, deliverable, review: intent === "approve" ? { verdict: "approve" } : { verdict: "changes", note } }, context, notFound: "answer" });
  if (done.kind === "ERROR") {
    if (done.code === "not-found") refuse("not-found", done.message);
    const errors = done.reason === "INVALID_FIELDS" ? done.fieldErrors : {};
    return answerRefusal<DealActionData>(done, { intent, message: done.reason === "INVALID_FIELDS" ? undefined : done.message, work: { intent, deliverable: typed, errors, liveUrl, note } });
  }
  return redirectWithToast(request, context.sessionSecret, `/app/deals/${dealId}`, { kind: "success", message: WORK_DONE[intent] });
}

export async function dealAction(request: Request, context: AppLoadContext, user: SessionUser, dealId: string) {
  if (isMultipartForm(request)) return dealUploadAction(request, context, user, dealId);
  const form = await requireForm(request);
  const intent = formText(form, "intent");
  if (intent === "submit" || intent === "approve" || intent === "changes") return workOn(request, context, user, dealId, intent, form);
  if (formText(form, "intent") === "message") return postMessage(context, user, dealId, formText(form, "body"));
  if (formText(form, "intent") === "fund") return payToBook(context, user, dealId);
  const move = moveOf(form);
  if ("refused" in move) return answerRefusal<DealActionData>({ code: "invalid-argument" }, move.refused);
  const moved = await runForPage(moveDeal, { caller: pageCaller(user), input: { dealId, move }, context, client: { ip: context.clientIp, browserToken: null }, notFound: "answer" });
  if (moved.kind === "ERROR") {
    if (moved.code === "not-found") refuse("not-found", moved.message);
    const errors = moved.reason === "INVALID_FIELDS" ? moved.fieldErrors : undefined;
    return answerRefusal<DealActionData>(moved, { intent: move.action, message: moved.message, reason: moved.reason, errors });
  }
  // A cancelled deal's held money goes back now (the job retries if the provider is slow).
  if (move.action === "agree_cancel" || move.action === "cancel_late") {
    await refundCancelledDeal(context.db, context.payments, dealId).catch((error: unknown) => context.logger.warn({ err: error, dealId }, "deal refund deferred to the sweep"));
  }
  const done = DONE[move.action];
  if (!done) throw redirect(`/app/deals/${dealId}`);
  return redirectWithToast(request, context.sessionSecret, `/app/deals/${dealId}`, { kind: "success", message: done });
}
