import { Form, useNavigation } from "react-router";
import { getSessionUser } from "#server/domains/auth/session";
import { joinCookie, joinTarget, loadJoinOffer, readJoinCookie, startMembershipCheckout, type JoinFieldErrors, type JoinFormValues, type JoinOffer } from "#server/domains/memberships/join";
import { CreatorFrame, themedButtonClass, themedButtonStyle } from "#app/components/payments/CreatorFrame";
import { formatMoney } from "#isomorphic/format";
import { MEMBERSHIP_INTERVAL_LABELS, MEMBERSHIP_LIMITS, MEMBERSHIP_PER } from "#isomorphic/membership-limits";
import { FormNotice, TextField } from "#page-kit/forms";
import { readForm } from "#page-kit/form.server";
import { pageMeta } from "#page-kit/meta";
import { answerRefusal, answerRetryLater, refuse, seeOther } from "#page-kit/respond.server";
import type { Route } from "./+types/join";

/**
 * Joining a membership tier (ADR 0084), open to guests: the bio page's Join link lands here, on our
 * page in the creator's look, as a tip's checkout does. The form opens the provider's hosted
 * subscription checkout (startMembershipCheckout); the provider sends the member to the welcome
 * page, or back to the bio page if they cancel.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const target = joinTarget(new URL(request.url).searchParams);
  if (!target) refuse("not-found");
  const loaded = await loadJoinOffer(context.db, target);
  if (loaded.kind === "ERROR") refuse("not-found", loaded.message);
  const user = await getSessionUser(request, context);
  return { offer: loaded.offer, bioOrigin: context.config.BIO_ORIGIN, appName: context.config.APP_NAME, signedInEmail: user?.email ?? "" };
}

/** The creator's look, not the marketing site's (app/root.tsx). */
export const handle = { siteChrome: false };

type ActionData = { values: JoinFormValues; fieldErrors: JoinFieldErrors; message: string | null };

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/** The form's fields as typed; an unticked box sends nothing. */
const valuesOf = (form: FormData): JoinFormValues => ({
  interval: text(form, "interval"),
  amount: text(form, "amount"),
  memberEmail: text(form, "memberEmail"),
  memberName: text(form, "memberName"),
  private: text(form, "private") === "on",
});

export async function action({ request, context }: Route.ActionArgs) {
  const target = joinTarget(new URL(request.url).searchParams);
  if (!target) refuse("not-found");
  const read = await readForm(request);
  if (read.kind === "ERROR") return answerRefusal<ActionData>(read, { values: valuesOf(read.salvaged ?? new FormData()), fieldErrors: {}, message: read.message });
  const values = valuesOf(read.form);
  const user = await getSessionUser(request, context);
  const result = await startMembershipCheckout(
    context.db,
    context.payments,
    {
      ending: target.ending,
      tierId: target.tierId,
      values,
      joiner: user ? { uid: user.id, email: user.email } : null,
      client: { ip: context.clientIp, reuseToken: readJoinCookie(request.headers.get("Cookie")) },
    },
    { platformFeePercent: context.config.PLATFORM_FEE_PERCENT, publicOrigin: context.config.PUBLIC_ORIGIN, bioOrigin: context.config.BIO_ORIGIN },
  );
  if (result.kind === "SUCCESS") {
    // The provider's hosted page (the domain answers only its own pages): the only redirect off our own paths.
    const toCheckout = seeOther(result.url);
    toCheckout.headers.set("Set-Cookie", joinCookie(result.membershipId, new URL(context.config.PUBLIC_ORIGIN).protocol === "https:"));
    throw toCheckout;
  }
  if (result.code === "not-found") refuse("not-found", result.message);
  if ("fieldErrors" in result) return answerRefusal<ActionData>({ code: "unprocessable-content" }, { values, fieldErrors: result.fieldErrors, message: null });
  if ("retryAfterSeconds" in result) return answerRetryLater<ActionData>(result, { values, fieldErrors: {}, message: result.message });
  return answerRefusal<ActionData>(result, { values, fieldErrors: {}, message: result.message });
}

/** What someone typed (their email) is theirs: never kept by a shared cache. */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: args.data ? `Join ${args.data.offer.tier.name} · ${args.data.offer.payeeName}` : "Join", noindex: true });

export default function Join({ loaderData, actionData }: Route.ComponentProps) {
  const { offer, bioOrigin, appName, signedInEmail } = loaderData;
  return (
    <CreatorFrame look={offer.look} bioOrigin={bioOrigin} appName={appName}>
      <JoinBody offer={offer} signedInEmail={signedInEmail} actionData={actionData} />
    </CreatorFrame>
  );
}

function JoinBody({ offer, signedInEmail, actionData }: { offer: JoinOffer; signedInEmail: string; actionData: ActionData | undefined }) {
  const busy = useNavigation().state !== "idle";
  const { tier } = offer;
  const errors = actionData?.fieldErrors ?? {};
  const values = actionData?.values;
  const interval = values?.interval === "year" && tier.yearlyPrice !== null ? "year" : values ? "month" : offer.interval;
  const price = (minorUnits: number, per: "month" | "year") => `${formatMoney(minorUnits, tier.currency)}${MEMBERSHIP_PER[per]}`;
  return (
    <>
      <h1 className="text-xl font-bold sm:text-3xl">Join {tier.name}</h1>
      <p className="mt-1 text-muted">
        A membership of {offer.payeeName}: {price(tier.monthlyPrice, "month")}
        {tier.yearlyPrice !== null ? ` or ${price(tier.yearlyPrice, "year")}` : ""}.
      </p>
      {tier.benefits.length > 0 ? (
        <ul aria-label="What members get" className="mt-3 list-disc space-y-1 pl-5">
          {tier.benefits.map((benefit, index) => (
            <li key={index} className="break-words">
              {benefit}
            </li>
          ))}
        </ul>
      ) : null}
      {tier.spotsLeft !== null && tier.spotsLeft > 0 ? <p className="mt-2 text-sm font-semibold">{tier.spotsLeft === 1 ? "1 spot left" : `${tier.spotsLeft} spots left`}</p> : null}

      {offer.closed ? (
        <div className="mt-6">
          <FormNotice kind="info">
            <p>{offer.closed}</p>
          </FormNotice>
        </div>
      ) : (
        <Form method="post" noValidate className="mt-5 space-y-4">
          {actionData?.message ? <FormNotice>{actionData.message}</FormNotice> : null}
          {tier.yearlyPrice !== null ? (
            <fieldset aria-describedby={errors.interval ? "interval-error" : undefined}>
              <legend className="font-medium">How often you pay</legend>
              <div className="mt-2 grid gap-2 sm:grid-cols-2">
                {(["month", "year"] as const).map((per) => (
                  <label key={per} className="flex min-h-12 items-center gap-3 rounded-xl border border-ink/20 px-4 py-2 has-[:checked]:border-primary has-[:checked]:bg-primary/5">
                    <input type="radio" name="interval" value={per} defaultChecked={interval === per} className="h-5 w-5 flex-none accent-primary" />
                    <span>
                      <span className="font-medium">{MEMBERSHIP_INTERVAL_LABELS[per]}</span> · {price(per === "month" ? tier.monthlyPrice : tier.yearlyPrice!, per)}
                    </span>
                  </label>
                ))}
              </div>
              {errors.interval ? (
                <p id="interval-error" className="mt-1 text-sm text-red-800">
                  {errors.interval}
                </p>
              ) : null}
            </fieldset>
          ) : (
            <input type="hidden" name="interval" value="month" />
          )}
          <TextField
            label="Pay more (optional, USD)"
            name="amount"
            inputMode="decimal"
            autoComplete="off"
            defaultValue={values?.amount ?? ""}
            error={errors.amount}
            hint={`Leave blank to pay the tier's price. You may pay more each ${tier.yearlyPrice !== null ? "month or year" : "month"}, up to ${formatMoney(MEMBERSHIP_LIMITS.maximumPrice, tier.currency)}.`}
          />
          <TextField
            label="Email"
            name="memberEmail"
            type="email"
            autoComplete="email"
            defaultValue={values?.memberEmail ?? signedInEmail}
            error={errors.memberEmail}
            hint="Your member link, receipts and posts come here. No account needed."
          />
          <TextField
            label="Your name (optional)"
            name="memberName"
            autoComplete="name"
            maxLength={99}
            defaultValue={values?.memberName ?? ""}
            error={errors.memberName}
            hint={`Shown to ${offer.payeeName}.`}
          />
          <div>
            <label className="flex min-h-11 items-center gap-3">
              <input type="checkbox" name="private" value="on" defaultChecked={values?.private ?? false} aria-describedby="private-hint" className="h-5 w-5 flex-none accent-primary" />
              <span className="font-medium">Keep my membership private</span>
            </label>
            <p id="private-hint" className="pl-8 text-sm text-muted">
              You are kept off {offer.payeeName}'s public page. {offer.payeeName} still sees your name.
            </p>
          </div>
          <div>
            <button type="submit" className={`${themedButtonClass} w-full sm:w-auto`} style={themedButtonStyle(offer.look.theme)} disabled={busy}>
              {busy ? "Opening checkout…" : "Continue to payment"}
            </button>
            <p className="mt-2 text-sm text-muted">Next you pay on the payment provider's secure page. You can cancel any time from your member page.</p>
          </div>
        </Form>
      )}
    </>
  );
}
