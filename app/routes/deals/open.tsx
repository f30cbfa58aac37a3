import { Form, Link, redirect, useNavigation } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { listOwnPages } from "#server/domains/bio/pages";
import { sidesOn, type PitchFieldErrors } from "#server/domains/deals/open-deal";
import { parseTerms, termsFormOf, type TermsFieldErrors, type TermsFormFields } from "#server/domains/deals/terms-form";
import { openDeal } from "#server/features/operations/deals/write";
import { readOpportunity } from "#server/features/operations/opportunities/read";
import { pageCaller, runForPage } from "#app/lib/operation-door.server";
import { formText } from "#app/lib/identity.server";
import { blankTerms, TermsFields } from "#app/components/deals/TermsFields";
import { FormNotice, primaryButton, SelectField, TextArea } from "#page-kit/forms";
import { pageMeta } from "#page-kit/meta";
import { answerRefusal, requireForm } from "#page-kit/respond.server";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import { MAX_DEAL_LINKS, MAX_DEAL_TEXT, openDealPath } from "#isomorphic/deal-limits";
import type { Route } from "./+types/open";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const { post } = await runForPage(readOpportunity, { caller: pageCaller(user), input: { opportunityId: params.docId }, context });
  if (post.posterUid === user.id) throw redirect(`/app/opportunities/${post.id}`);
  const path = openDealPath(post.id, post.kind);
  if (new URL(request.url).pathname !== path) throw redirect(path);
  const { opener } = sidesOn(post.kind);
  const pages = opener === "creator" ? await listOwnPages(context.db, user.id) : [];
  return {
    post: { id: post.id, title: post.title, organization: post.organization, posterName: post.posterName, kind: post.kind, minContributionCents: post.minContributionCents },
    pages: pages.map((page) => ({ id: page.id, ending: page.customEnding })),
    feePercent: context.config.PLATFORM_FEE_PERCENT,
  };
}

type ActionData = { pitch: string; links: string; bioPageId: string; terms: TermsFormFields; errors: PitchFieldErrors & TermsFieldErrors; message?: string };

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireVerifiedUser(request, context);
  const form = await requireForm(request);
  const typed = { pitch: formText(form, "pitch"), links: formText(form, "links"), bioPageId: formText(form, "bioPageId"), terms: termsFormOf(form) };
  const terms = parseTerms(typed.terms);
  if (terms.kind === "ERROR") return answerRefusal<ActionData>(terms, { ...typed, errors: terms.fieldErrors });
  const opened = await runForPage(openDeal, {
    caller: pageCaller(user),
    input: { opportunityId: params.docId, ...typed, terms: terms.terms },
    context,
    client: { ip: context.clientIp, browserToken: null },
    // No such opportunity (taken down since the form was read) is said beside the form, as before.
    notFound: "answer",
  });
  if (opened.kind === "SUCCESS") {
    return redirectWithToast(request, context.sessionSecret, `/app/deals/${opened.dealId}`, { kind: "success", message: "Sent. You'll hear when they answer." });
  }
  if (opened.reason === "ALREADY_OPEN") throw redirect(`/app/deals/${opened.dealId}`);
  const errors = opened.reason === "INVALID_FIELDS" ? opened.fieldErrors : {};
  return answerRefusal<ActionData>(opened, { ...typed, errors, message: opened.reason === "INVALID_FIELDS" ? undefined : opened.message });
}

export const meta: Route.MetaFunction = (args) =>
  args.data ? pageMeta(args, { title: `${args.data.post.kind === "brief" ? "Apply to" : "Make an offer on"} ${args.data.post.title}` }) : [];

export default function OpenDeal({ loaderData, actionData }: Route.ComponentProps) {
  const { post, pages, feePercent } = loaderData;
  const busy = useNavigation().state === "submitting";
  const applying = post.kind === "brief";
  const errors: PitchFieldErrors & TermsFieldErrors = actionData?.errors ?? {};
  const suggested = post.minContributionCents > 0 ? String(post.minContributionCents / 100) : "";
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
      <Link to={`/app/opportunities/${post.id}`} className="text-sm font-semibold">
        ← {post.title}
      </Link>
      <h1 className="mt-4 text-3xl font-bold">{applying ? "Apply to this brief" : "Make an offer"}</h1>
      <p className="mt-2 text-muted">
        {applying
          ? `${post.posterName || post.organization || "The sponsor"} reads your pitch and your proposed terms, and can shortlist you, answer with terms of their own, or decline.`
          : `${post.posterName || "The creator"} reads your offer and can accept it, answer with terms of their own, or decline. You pay only once both of you agree.`}
      </p>
      {actionData?.message ? (
        <div className="mt-6">
          <FormNotice>{actionData.message}</FormNotice>
        </div>
      ) : actionData ? (
        <div className="mt-6">
          <FormNotice>Please correct the fields marked below.</FormNotice>
        </div>
      ) : null}
      <Form method="post" noValidate className="mt-8 space-y-6">
        <TextArea
          label={applying ? "Your pitch" : "Your offer"}
          name="pitch"
          rows={5}
          defaultValue={actionData?.pitch}
          error={errors.pitch}
          aria-required="true"
          maxLength={MAX_DEAL_TEXT}
          hint={applying ? "Who your audience is, why this brand fits it, and what you would make." : "What you are promoting, what you would like made, and why this creator."}
        />
        {applying ? (
          <>
            <SelectField label="Bio page to show" name="bioPageId" defaultValue={actionData?.bioPageId ?? pages[0]?.id ?? ""} error={errors.bioPageId} hint="The sponsor sees your page with your pitch.">
              <option value="">None</option>
              {pages.map((page) => (
                <option key={page.id} value={page.id}>
                  /{page.ending}
                </option>
              ))}
            </SelectField>
            <TextArea label="Links (optional)" name="links" rows={2} defaultValue={actionData?.links} error={errors.links} hint={`Up to ${MAX_DEAL_LINKS}: a media kit, past sponsored work. One per line.`} />
          </>
        ) : null}
        <h2 className="text-xl font-bold">Proposed terms</h2>
        <TermsFields values={actionData?.terms ?? blankTerms(suggested)} errors={errors} feePercent={feePercent} messageLabel="Anything else about these terms (optional)" />
        <button type="submit" className={primaryButton} disabled={busy}>
          {busy ? "Sending..." : applying ? "Send application" : "Send offer"}
        </button>
      </Form>
    </div>
  );
}
