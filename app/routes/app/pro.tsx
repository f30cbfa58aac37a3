import { Form, Link, useNavigation } from "react-router";
import { safeRedirectPath } from "#server/platform/http/redirects";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { proPurchaseRule } from "#server/domains/pro/checkout";
import { findBillingCustomer } from "#server/domains/pro/customers";
import { isProPlanKey, PRO_PLAN_KEYS, PRO_PLANS, proPriceText, yearlySavingPercent } from "#isomorphic/pro-plans";
import { getProStatus } from "#server/domains/pro/pro-status";
import { proPitchFor } from "#server/domains/pro/pitch";
import { DirectoryEvidence } from "#app/components/pro/DirectoryEvidence";
import { notificationDepsOf } from "#server/domains/notifications/deps";
import { refreshAfterCheckout } from "#server/domains/pro/refresh";
import { FormNotice, PageNotice, primaryButton, secondaryButton } from "#page-kit/forms";
import { readAccountSectionForm } from "#app/lib/account-section.server";
import { pageCaller, runForPage } from "#app/lib/operation-door.server";
import { startProCheckout } from "#server/features/operations/pro/pro-checkout";
import { MAX_RETURN_TO, openProPortal } from "#server/features/operations/pro/pro-portal";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/pro";
import { answerRefusal, seeOther } from "#page-kit/respond.server";

const PRO_PATH = "/app/pro";
const PLAN_BLURB = {
  launchpad: "Month to month. Cancel any time in the Pro Portal.",
  star_power: `A whole year: ${yearlySavingPercent()}% less than twelve months of Launchpad.`,
  limitless: "Pay once, Pro for good. Never expires.",
} as const;

/** "November 22, 2026": the day a period ends, on the same calendar for everyone (UTC). */
const dayText = (date: Date) => new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(date);

/** The portal comes back to these plans, still carrying where to go after them (dropped if the whole would be too long to be a return path). */
function plansPathBackTo(returnTo: string): string {
  const back = `${PRO_PATH}?returnTo=${encodeURIComponent(returnTo)}`;
  return back.length <= MAX_RETURN_TO ? back : PRO_PATH;
}

function returnToOf(request: Request): string {
  return safeRedirectPath(new URL(request.url).searchParams.get("returnTo"), "/app");
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const url = new URL(request.url);
  const checkout = url.searchParams.get("checkout");
  const returnTo = returnToOf(request);
  let confirming = false;
  if (checkout === "success") {
    // Back from paying: read the provider now (while a checkout is unsettled, at most every few seconds), so the page is right before the webhook arrives.
    try {
      await refreshAfterCheckout(context.db, context.payments, user.id, notificationDepsOf(context));
    } catch (error) {
      confirming = true;
      context.logger?.warn({ err: error }, "Pro membership could not be refreshed on return from checkout; the webhook will sync it");
    }
  }
  const [status, customerId] = await Promise.all([getProStatus(context.db, user.id), findBillingCustomer(context.db, user.id)]);
  return {
    pitch: status.isPro ? ({ kind: "member" } as const) : await proPitchFor(context.db, user.id),
    returnTo,
    checkout: checkout === "success" ? ("success" as const) : checkout === "cancelled" ? ("cancelled" as const) : null,
    confirming: confirming || (checkout === "success" && !status.isPro),
    hasCustomer: customerId !== null,
    pro: {
      isPro: status.isPro,
      plan: status.plan,
      planName: status.plan ? PRO_PLANS[status.plan].name : null,
      periodEnd: status.currentPeriodEnd ? dayText(status.currentPeriodEnd) : null,
      renewalFailed: status.renewalFailed,
      cancelAtPeriodEnd: status.cancelAtPeriodEnd,
      stillBilling: status.stillBilling && {
        planName: PRO_PLANS[status.stillBilling.plan].name,
        price: proPriceText(status.stillBilling.plan),
        until: dayText(status.stillBilling.periodEnd),
        renews: status.stillBilling.renews,
      },
    },
    // Said on the Limitless card before paying: what happens to the subscription they have now.
    limitlessEndsSubscription:
      status.isPro && status.plan && status.plan !== "limitless" && status.currentPeriodEnd
        ? { planName: PRO_PLANS[status.plan].name, on: dayText(status.currentPeriodEnd), alreadyEnding: status.cancelAtPeriodEnd }
        : null,
    plans: PRO_PLAN_KEYS.map((key) => ({ key, name: PRO_PLANS[key].name, price: proPriceText(key), blurb: PLAN_BLURB[key], offer: proPurchaseRule(status, key) })),
  };
}

type ActionData = { error: string };

/**
 * The plans' buttons (startProCheckout) and "Open the Pro Portal" (openProPortal); both come
 * back here from the provider. The plan is a form field: one not on the page is said here, in the
 * page's words, before the operation reads it.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const post = await readAccountSectionForm<ActionData>(request, context);
  if (post.refused) return post.refused;
  const { user, form, intent } = post;
  const caller = pageCaller(user);
  const returnTo = returnToOf(request);
  const opened =
    intent === "portal"
      ? await runForPage(openProPortal, { caller, input: { returnTo: plansPathBackTo(returnTo) }, context, notFound: "answer" })
      : isProPlanKey(form.get("plan"))
        ? await runForPage(startProCheckout, { caller, input: { plan: form.get("plan"), returnTo }, context, notFound: "answer" })
        : null;
  if (!opened) return answerRefusal<ActionData>({ code: "invalid-argument" }, { error: "Choose one of the plans." });
  // The plans are on this very page: having none to manage is said in this page's words.
  if (opened.kind === "ERROR") return answerRefusal<ActionData>(opened, { error: "reason" in opened && opened.reason === "NO_CUSTOMER" ? "You have no Pro plan to manage yet: choose one below." : opened.message });
  // The provider's hosted checkout or portal: the only redirects off our own paths, and only to where that provider hosts them.
  throw seeOther(opened.url);
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Pro Membership" });

type LoaderData = Route.ComponentProps["loaderData"];

function Membership({ pro, hasCustomer }: Pick<LoaderData, "pro" | "hasCustomer">) {
  return (
    <section aria-labelledby="membership-heading" className="mt-8 rounded-2xl border border-primary/20 bg-secondary/10 p-6">
      <h2 id="membership-heading" className="text-xl font-bold">
        Your membership
      </h2>
      <dl className="mt-4 grid gap-3 sm:grid-cols-2">
        <div>
          <dt className="text-sm text-muted">Plan</dt>
          <dd className="font-semibold">{pro.planName}</dd>
        </div>
        <div>
          <dt className="text-sm text-muted">{pro.plan === "limitless" ? "Ends" : pro.cancelAtPeriodEnd ? "Pro until" : "Renews on"}</dt>
          <dd className="font-semibold">{pro.plan === "limitless" ? "Never expires" : pro.periodEnd}</dd>
        </div>
      </dl>
      {pro.cancelAtPeriodEnd ? (
        <div className="mt-4">
          <FormNotice kind="info">
            Your plan is cancelled and will not renew. You are Pro until {pro.periodEnd}. Changed your mind? Resume it in the Pro Portal.
          </FormNotice>
        </div>
      ) : null}
      {pro.renewalFailed ? (
        <div className="mt-4">
          <FormNotice>Your last renewal payment failed. Update your card in the Pro Portal to stay Pro.</FormNotice>
        </div>
      ) : null}
      {pro.stillBilling ? (
        <div className="mt-4">
          <StillBilling billing={pro.stillBilling} />
        </div>
      ) : null}
      {hasCustomer ? (
        <Form method="post" className="mt-5">
          <button type="submit" name="intent" value="portal" className={secondaryButton}>
            Open the Pro Portal
          </button>
        </Form>
      ) : null}
    </section>
  );
}

/** A subscription still billing beside Limitless: never left unsaid. */
function StillBilling({ billing }: { billing: NonNullable<LoaderData["pro"]["stillBilling"]> }) {
  return billing.renews ? (
    <FormNotice>
      Your {billing.planName} subscription ({billing.price}) still renews on {billing.until}. Limitless already covers you: cancel the subscription in the Pro Portal.
    </FormNotice>
  ) : (
    <FormNotice kind="info">
      Your {billing.planName} subscription ({billing.price}) ends on {billing.until} and will not renew: Limitless covers you from now on.
    </FormNotice>
  );
}

export default function ProPage({ loaderData, actionData }: Route.ComponentProps) {
  const { pro, plans, checkout, confirming, returnTo, hasCustomer, limitlessEndsSubscription, pitch } = loaderData;
  const navigation = useNavigation();
  const choosing = navigation.state !== "idle" ? navigation.formData?.get("plan") : null;
  const thanks = checkout === "success" && pro.isPro;
  return (
    <div className="mx-auto max-w-5xl px-4 py-10 sm:py-14">
      {thanks ? (
        <section aria-labelledby="thanks-heading" role="status" className="mb-8 rounded-2xl border border-green-700/30 bg-green-50 p-6 text-green-950">
          <h2 id="thanks-heading" className="text-2xl font-bold">
            Thank you for becoming a Pro!
          </h2>
          <p className="mt-2">Your {pro.planName} plan is active. The whole sponsor directory is open to you.</p>
          <p className="mt-4">
            <Link to={returnTo} className={`${primaryButton} no-underline`}>
              Back to where you were
            </Link>
          </p>
        </section>
      ) : null}
      {checkout === "success" && confirming ? (
        <div className="mb-8">
          <FormNotice kind="info">Thanks! We are confirming your payment with the provider. This page will show your plan in a moment: reload it shortly.</FormNotice>
        </div>
      ) : null}
      {checkout === "cancelled" ? (
        <div className="mb-8">
          <FormNotice kind="info">Checkout cancelled. Nothing was charged; you can choose a plan whenever you like.</FormNotice>
        </div>
      ) : null}

      <h1 className="text-3xl font-bold">{pro.isPro ? "You are a Pro" : "Become a Pro!"}</h1>
      {pro.isPro ? <Membership pro={pro} hasCustomer={hasCustomer} /> : <p className="mt-2 text-lg">Choose one of the plans below</p>}
      <PageNotice>{actionData?.error}</PageNotice>

      {pitch.kind === "evidence" ? <DirectoryEvidence counts={pitch.counts} preview={pitch.preview} /> : null}
      {pitch.kind === "sponsor" ? <NotForSponsors /> : null}

      <section aria-labelledby="plans-heading" className="mt-8">
        <h2 id="plans-heading" className={pro.isPro ? "text-xl font-bold" : "sr-only"}>
          Plans
        </h2>
        <ul className="mt-4 grid gap-6 md:grid-cols-3">
          {plans.map((plan) => (
            <li key={plan.key} className="flex flex-col rounded-2xl border border-primary/15 p-6 shadow-sm">
              <h3 className="text-xl font-bold">{plan.name}</h3>
              <p className="mt-2 text-2xl font-bold">{plan.price}</p>
              <p className="mt-2 grow text-sm text-muted">{plan.blurb}</p>
              {plan.key === "limitless" && plan.offer === "BUY" && limitlessEndsSubscription ? (
                <p className="mt-3 text-sm" data-testid="limitless-ends-subscription">
                  {limitlessEndsSubscription.alreadyEnding
                    ? `Your ${limitlessEndsSubscription.planName} subscription already ends on ${limitlessEndsSubscription.on}.`
                    : `Buying Limitless ends your ${limitlessEndsSubscription.planName} subscription on ${limitlessEndsSubscription.on}: it will not renew, and you stay Pro for good.`}
                </p>
              ) : null}
              <div className="mt-5">
                {plan.offer === "ALREADY" ? (
                  <p className="font-semibold">{pro.plan === plan.key ? "Your current plan" : "Included in your Limitless plan"}</p>
                ) : (
                  <Form method="post">
                    <input type="hidden" name="plan" value={plan.key} />
                    <button type="submit" className={`${primaryButton} w-full`} disabled={choosing != null} aria-label={plan.offer === "SWITCH_IN_PORTAL" ? `Switch to ${plan.name} in the Pro Portal` : `Choose ${plan.name}`}>
                      {choosing === plan.key ? "Opening…" : plan.offer === "SWITCH_IN_PORTAL" ? `Switch to ${plan.name}` : `Choose ${plan.name}`}
                    </button>
                  </Form>
                )}
              </div>
            </li>
          ))}
        </ul>
        {pro.isPro && pro.plan !== "limitless" ? (
          <p className="mt-4 text-sm text-muted">Switching between Launchpad and Star Power happens in the Pro Portal. Buying Limitless ends your subscription at the end of its period.</p>
        ) : null}
      </section>
    </div>
  );
}

/**
 * A sponsor reaches this page only by asking for it (SPEC keeps it open to every verified person):
 * Pro opens a directory of companies that sponsor creators, so it is said plainly that they do not
 * need it, and where their own way in is.
 */
function NotForSponsors() {
  return (
    <section aria-labelledby="sponsors-heading" className="mt-6 max-w-3xl rounded-2xl border border-primary/20 bg-primary/5 p-6">
      <h2 id="sponsors-heading" className="text-xl font-bold">
        Pro is made for creators
      </h2>
      <p className="mt-2">
        Pro opens the directory of companies that sponsor creators, so creators can find sponsors. As a sponsor you do not need it: find
        creators on <Link to="/app/profiles">Profiles</Link> and in the <Link to="/app/opportunities">Opportunities</Link> they post.
      </p>
    </section>
  );
}
