import { Form, Link, redirect, useNavigation } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { openDirectOffer, publicPageOwner, type DirectOfferFieldErrors } from "#server/domains/deals/open-deal";
import { parseTerms, termsFormOf, type TermsFieldErrors, type TermsFormFields } from "#server/domains/deals/terms-form";
import { notificationDepsOf } from "#server/domains/notifications/deps";
import { formText } from "#app/lib/identity.server";
import { blankTerms, TermsFields } from "#app/components/deals/TermsFields";
import { FormNotice, primaryButton, TextArea, TextField } from "#page-kit/forms";
import { pageMeta } from "#page-kit/meta";
import { answerRefusal, refuse, requireForm } from "#page-kit/respond.server";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import { MAX_DEAL_TEXT } from "#isomorphic/deal-limits";
import { amountInputText } from "#isomorphic/amount-input";
import { packageOfPage, type BioPackage } from "#server/domains/bio/packages";
import type { Route } from "./+types/offer-to-creator";

/** The form's first values when the sponsor requests a package from the bio page: all of it still theirs to change. */
type Prefill = { requesting: string; subject: string; pitch: string; terms: TermsFormFields };

const DAY_MS = 86_400_000;

/**
 * The offer a package makes: its title as what the offer is for and as what is made, its price, and
 * one deliverable due the package's turnaround from today (UTC). The channel says "As agreed": the
 * package names no network, and the sponsor may name one before sending.
 */
function prefillFrom(item: BioPackage, now = new Date()): Prefill {
  const due = new Date(now.getTime() + item.turnaroundDays * DAY_MS).toISOString().slice(0, 10);
  const terms = { ...blankTerms(amountInputText(item.price)), deliverableChannel: ["As agreed"], deliverableFormat: [item.title], deliverableDue: [due] };
  return { requesting: item.title, subject: item.title, pitch: `I would like to book “${item.title}”.`, terms };
}

/**
 * /app/deals/new?page={ending}: a sponsor's offer straight to the creator behind a bio page;
 * with &package={id}, prefilled from one of that page's packages (another page's is ignored).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const search = new URL(request.url).searchParams;
  const ending = search.get("page") ?? "";
  const page = ending ? await publicPageOwner(context.db, ending) : null;
  if (!page) refuse("not-found", "There is no such bio page.");
  if (page.uid === user.id) throw redirect("/app/deals");
  const item = await packageOfPage(context.db, page.id, search.get("package") ?? "");
  return {
    page: { ending: page.ending, pageName: page.pageName, creatorName: page.creatorName },
    prefill: item ? prefillFrom(item) : null,
    feePercent: context.config.PLATFORM_FEE_PERCENT,
  };
}

type ActionData = { subject: string; pitch: string; terms: TermsFormFields; errors: DirectOfferFieldErrors & TermsFieldErrors; message?: string };

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireVerifiedUser(request, context);
  const form = await requireForm(request);
  const typed = { subject: formText(form, "subject"), pitch: formText(form, "pitch"), terms: termsFormOf(form) };
  const terms = parseTerms(typed.terms);
  if (terms.kind === "ERROR") return answerRefusal<ActionData>(terms, { ...typed, errors: terms.fieldErrors });
  const ending = new URL(request.url).searchParams.get("page") ?? "";
  const opened = await openDirectOffer(context.db, notificationDepsOf(context), { uid: user.id, bioPageEnding: ending, ...typed, terms: terms.terms, network: context.clientIp });
  if (opened.kind === "SUCCESS") {
    return redirectWithToast(request, context.sessionSecret, `/app/deals/${opened.dealId}`, { kind: "success", message: "Sent. You'll hear when they answer." });
  }
  if (opened.reason === "ALREADY_OPEN") throw redirect(`/app/deals/${opened.dealId}`);
  if (opened.reason === "INVALID_FIELDS") return answerRefusal<ActionData>(opened, { ...typed, errors: opened.fieldErrors });
  if (opened.code === "not-found") refuse(opened.code, opened.message);
  return answerRefusal<ActionData>(opened, { ...typed, errors: {}, message: opened.message });
}

export const meta: Route.MetaFunction = (args) => (args.data ? pageMeta(args, { title: `Make ${args.data.page.creatorName} an offer` }) : []);

export default function OfferToCreator({ loaderData, actionData }: Route.ComponentProps) {
  const { page, prefill, feePercent } = loaderData;
  const busy = useNavigation().state === "submitting";
  const errors: DirectOfferFieldErrors & TermsFieldErrors = actionData?.errors ?? {};
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
      <Link to="/app/profiles" className="text-sm font-semibold">
        ← Profiles
      </Link>
      <h1 className="mt-4 text-3xl font-bold">Make {page.creatorName} an offer</h1>
      {prefill ? <p className="mt-2 text-lg font-semibold">Requesting “{prefill.requesting}”</p> : null}
      <p className="mt-2 text-muted">
        {page.creatorName} reads your offer with their page /{page.ending}, and can accept it, answer with terms of their own, or decline. You pay only once both of you agree, and your money is held until the work is approved.
      </p>
      {actionData ? (
        <div className="mt-6">
          <FormNotice>{actionData.message ?? "Please correct the fields marked below."}</FormNotice>
        </div>
      ) : null}
      <Form method="post" noValidate className="mt-8 space-y-6">
        <TextField label="What is it for?" name="subject" defaultValue={actionData?.subject ?? prefill?.subject} error={errors.subject} aria-required="true" placeholder="Spring headphone launch" maxLength={99} />
        <TextArea
          label="Your offer"
          name="pitch"
          rows={5}
          defaultValue={actionData?.pitch ?? prefill?.pitch}
          error={errors.pitch}
          aria-required="true"
          maxLength={MAX_DEAL_TEXT}
          hint="What you are promoting, what you would like made, and why this creator."
        />
        <h2 className="text-xl font-bold">Proposed terms</h2>
        <TermsFields values={actionData?.terms ?? prefill?.terms ?? blankTerms()} errors={errors} feePercent={feePercent} messageLabel="Anything else about these terms (optional)" />
        <button type="submit" className={primaryButton} disabled={busy}>
          {busy ? "Sending..." : "Send offer"}
        </button>
      </Form>
    </div>
  );
}
