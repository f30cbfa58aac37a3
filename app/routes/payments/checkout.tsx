import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { getSessionUser } from "#server/domains/auth/session";
import { checkoutTarget, loadCheckoutOffer, type CheckoutFormValues, type CheckoutOffer } from "#server/domains/payments/checkout/start-checkout";
import { startSponsorSession } from "#server/features/operations/payments/sponsor-session";
import { pageCaller, runForPage } from "#app/lib/operation-door.server";
import type { FieldErrors } from "#server/domains/payments/checkout/sponsor-session";
import { checkoutCookie, newCheckoutToken, readCheckoutToken } from "#server/domains/payments/checkout/reuse";
import { FormNotice, TextArea, TextField } from "#page-kit/forms";
import { formatMoney } from "#isomorphic/format";
import { amountInputText } from "#isomorphic/amount-input";
import { NO_PLATFORM_FUNDS_MESSAGE } from "#isomorphic/payment-limits";
import { AmountChoice } from "#app/components/payments/AmountChoice";
import { CreatorFrame, themedButtonClass, themedButtonStyle } from "#app/components/payments/CreatorFrame";
import { readForm } from "#page-kit/form.server";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/checkout";
import { answerRefusal, answerRetryLater, refuse, seeOther } from "#page-kit/respond.server";

async function offerFor(request: Request, context: Route.LoaderArgs["context"]) {
  const target = checkoutTarget(new URL(request.url).searchParams);
  if (!target) refuse("not-found");
  const loaded = await loadCheckoutOffer(context.db, target);
  if (loaded.kind !== "SUCCESS") refuse("not-found");
  return { target, offer: loaded.offer };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { offer } = await offerFor(request, context);
  const user = await getSessionUser(request, context);
  return { offer, bioOrigin: context.config.BIO_ORIGIN, appName: context.config.APP_NAME, signedInEmail: user?.email ?? "" };
}

/** The creator's look, not the marketing site's (app/root.tsx). */
export const handle = { siteChrome: false };

type ActionData = { values: CheckoutFormValues; fieldErrors: FieldErrors; message: string | null };

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/** The form's fields as typed; an unticked box sends nothing. */
const valuesOf = (form: FormData): CheckoutFormValues => ({
  amount: text(form, "amount"),
  sponsorEmail: text(form, "sponsorEmail"),
  message: text(form, "message"),
  supporterName: text(form, "supporterName"),
  private: text(form, "private") === "on",
});

export async function action({ request, context }: Route.ActionArgs) {
  const target = checkoutTarget(new URL(request.url).searchParams);
  if (!target) refuse("not-found");
  const read = await readForm(request);
  if (read.kind === "ERROR") {
    const salvaged = read.salvaged ?? new FormData();
    const values = valuesOf(salvaged);
    return answerRefusal<ActionData>(read, { values, fieldErrors: {}, message: read.message });
  }
  const values = valuesOf(read.form);
  const user = await getSessionUser(request, context);
  // This browser's checkout token: the same form sent again reopens the checkout it made (server/domains/payments/checkout/reuse.ts).
  const browserToken = readCheckoutToken(request.headers.get("Cookie")) ?? newCheckoutToken();
  const input = { ending: target.ending, kind: target.kind, postId: target.postId, ...values };
  const result = await runForPage(startSponsorSession, { caller: pageCaller(user), input, context, client: { ip: context.clientIp, browserToken } });
  if (result.kind === "SUCCESS") {
    // The provider's hosted checkout (the operation answers only its own pages): the only redirect off our own paths.
    const toCheckout = seeOther(result.url);
    toCheckout.headers.set("Set-Cookie", checkoutCookie(browserToken, new URL(context.config.PUBLIC_ORIGIN).protocol === "https:"));
    throw toCheckout;
  }
  if (result.code === "invalid-argument" && "fieldErrors" in result) {
    const { postId, ...fieldErrors } = result.fieldErrors;
    // The fields are refused beside what was typed: the form was understood, its content was not (422).
    return answerRefusal<ActionData>({ code: "unprocessable-content" }, { values, fieldErrors, message: postId ?? null });
  }
  if ("retryAfterSeconds" in result) return answerRetryLater<ActionData>(result, { values, fieldErrors: {}, message: result.message });
  return answerRefusal<ActionData>(result, { values, fieldErrors: {}, message: result.message });
}

/** What someone typed (email, message) is theirs: never kept by a shared cache. */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  // A refused flood says when to come back (429).
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: args.data && !args.data.offer.unavailable ? `Sponsor ${args.data.offer.payeeName}` : "Sponsor checkout", noindex: true });

export default function SponsorCheckout({ loaderData, actionData }: Route.ComponentProps) {
  const { offer, bioOrigin, appName, signedInEmail } = loaderData;
  return (
    <CreatorFrame look={offer.look} bioOrigin={bioOrigin} appName={appName}>
      <CheckoutBody offer={offer} signedInEmail={signedInEmail} actionData={actionData} />
    </CreatorFrame>
  );
}

function Notice({ children }: { children: ReactNode }) {
  return (
    <div className="mt-6">
      <FormNotice kind="info">{children}</FormNotice>
    </div>
  );
}

function CheckoutBody({ offer, signedInEmail, actionData }: { offer: CheckoutOffer; signedInEmail: string; actionData: ActionData | undefined }) {
  const busy = useNavigation().state !== "idle";
  const errors = actionData?.fieldErrors ?? {};
  const option = offer.option;
  const tip = offer.kind === "tip";
  const collectable = tip || (option !== null && option.minContributionCents > 0);
  const values = actionData?.values;

  if (offer.unavailable) {
    return (
      <>
        <h1 className="text-2xl font-bold sm:text-3xl">Sponsor checkout</h1>
        <Notice>
          <p>{offer.unavailable}</p>
        </Notice>
      </>
    );
  }

  const extrasOpen = Boolean(errors.supporterName || values?.supporterName || values?.private);
  return (
    <>
      <h1 className="text-xl font-bold sm:text-3xl">{tip ? `Send a tip to ${offer.payeeName}` : `Sponsor ${offer.payeeName}`}</h1>
      {option ? (
        <section aria-labelledby="what-heading" className="mt-4 rounded-2xl border border-primary/15 bg-secondary/20 p-4">
          <h2 id="what-heading" className="text-lg font-bold">
            {option.title}
          </h2>
          <p className="mt-1 text-muted">
            {option.minContributionCents > 0 ? `Minimum contribution ${formatMoney(option.minContributionCents, option.currency)}` : NO_PLATFORM_FUNDS_MESSAGE}
          </p>
        </section>
      ) : null}

      {!offer.takesPayments ? (
        <Notice>
          <p>{offer.payeeName} cannot take payments yet. Nothing can be paid through this page for now.</p>
        </Notice>
      ) : tip && !offer.acceptsTips ? (
        <Notice>
          <p>{offer.payeeName} isn't taking tips right now.</p>
        </Notice>
      ) : !collectable ? (
        <Notice>
          <p>
            {NO_PLATFORM_FUNDS_MESSAGE}. Contact {offer.payeeName} directly to arrange it.
          </p>
        </Notice>
      ) : (
        <Form method="post" noValidate className="mt-4 space-y-4">
          {actionData?.message ? <FormNotice>{actionData.message}</FormNotice> : null}
          {tip ? (
            <AmountChoice
              theme={offer.look.theme}
              presets={offer.tipPresets}
              presetHref={(amount) => `/app/payments/checkout?page=${encodeURIComponent(offer.ending)}&kind=tip&amount=${amount}`}
              defaultValue={values?.amount ?? (offer.suggestedAmount ? amountInputText(offer.suggestedAmount) : "")}
              error={errors.amount}
              hint={`Pick one or type your own: at least ${formatMoney(offer.tipMinimum)}.`}
            />
          ) : (
            <TextField
              label="Amount (USD)"
              name="amount"
              inputMode="decimal"
              autoComplete="off"
              defaultValue={values?.amount ?? (offer.suggestedAmount ? amountInputText(offer.suggestedAmount) : "")}
              error={errors.amount}
              hint={option ? `At least ${formatMoney(option.minContributionCents, option.currency)}.` : undefined}
            />
          )}
          <TextField
            label="Sponsor email"
            name="sponsorEmail"
            type="email"
            autoComplete="email"
            defaultValue={values?.sponsorEmail ?? signedInEmail}
            error={errors.sponsorEmail}
            hint="Optional: we'll send your receipt here."
          />
          <TextArea
            label="Message"
            name="message"
            rows={3}
            defaultValue={values?.message ?? ""}
            error={errors.message}
            hint={offer.showsWall ? "It goes on the supporter wall too, unless you keep it private." : `Only ${offer.payeeName} sees it.`}
          />
          <OptionalExtras offer={offer} open={extrasOpen} values={values} errors={errors} />
          <div>
            <button type="submit" className={`${themedButtonClass} w-full sm:w-auto`} style={themedButtonStyle(offer.look.theme)} disabled={busy}>
              {busy ? "Opening checkout…" : "Proceed to Checkout"}
            </button>
            <p className="mt-2 text-sm text-muted">Next you pay on the payment provider's secure page. Nothing is charged until you confirm there.</p>
          </div>
        </Form>
      )}
    </>
  );
}

/**
 * The fields a fan may skip, folded so the amount, the message and the
 * button fit one phone screen: a native disclosure (keyboard and screen
 * readers know it, no script needed), open when it holds something typed or
 * refused.
 */
function OptionalExtras({ offer, open, values, errors }: { offer: CheckoutOffer; open: boolean; values: CheckoutFormValues | undefined; errors: FieldErrors }) {
  return (
    <details open={open} className="group rounded-xl border border-ink/15">
      <summary className="flex min-h-11 cursor-pointer list-none items-center gap-2 px-4 py-2 font-medium [&::-webkit-details-marker]:hidden">
        <span aria-hidden="true" className="inline-block transition-transform group-open:rotate-90">
          ▸
        </span>
        Your name, or stay private
      </summary>
      <div className="space-y-4 px-4 pb-4">
        <TextField
          label="Your name"
          name="supporterName"
          autoComplete="name"
          maxLength={99}
          defaultValue={values?.supporterName ?? ""}
          error={errors.supporterName}
          hint={offer.showsWall ? `Shown to ${offer.payeeName} and on their supporter wall.` : `Only ${offer.payeeName} sees it.`}
        />
        <div>
          {/* The hint sits outside the label: the box's name stays "Keep my support private", the hint is its description. */}
          <label className="flex min-h-11 items-center gap-3">
            <input type="checkbox" name="private" value="on" defaultChecked={values?.private ?? false} aria-describedby="private-hint" className="h-5 w-5 flex-none accent-primary" />
            <span className="font-medium">Keep my support private</span>
          </label>
          <p id="private-hint" className="pl-8 text-sm text-muted">
            {offer.showsWall
              ? `The wall shows “A private supporter”, without your name, message or amount. ${offer.payeeName} still sees them.`
              : `If ${offer.payeeName} shows a supporter wall, you appear as “A private supporter”. ${offer.payeeName} still sees your name and message.`}
          </p>
        </div>
      </div>
    </details>
  );
}
