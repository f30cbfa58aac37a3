import { Form, useNavigation } from "react-router";
import { getSessionUser } from "#server/auth/session";
import {
  amountInputText,
  checkoutTarget,
  loadCheckoutOffer,
  NO_PLATFORM_FUNDS_MESSAGE,
  providerCheckoutUrl,
  startSponsorCheckout,
  type CheckoutFormValues,
} from "#server/payments/sponsor-checkout";
import type { FieldErrors } from "#server/payments/checkout";
import { checkoutCookie, newCheckoutToken, readCheckoutToken } from "#server/payments/checkout-reuse";
import { FormNotice, primaryButton, TextArea, TextField } from "#page-kit/forms";
import { formatMoney } from "#isomorphic/format";
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
  return { offer, bioOrigin: context.config.BIO_ORIGIN, signedInEmail: user?.email ?? "" };
}

type ActionData = { values: CheckoutFormValues; fieldErrors: FieldErrors; message: string | null };

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

export async function action({ request, context }: Route.ActionArgs) {
  const target = checkoutTarget(new URL(request.url).searchParams);
  if (!target) refuse("not-found");
  const read = await readForm(request);
  if (read.kind === "ERROR") {
    const salvaged = read.salvaged ?? new FormData();
    const values = { amount: text(salvaged, "amount"), sponsorEmail: text(salvaged, "sponsorEmail"), message: text(salvaged, "message") };
    return answerRefusal<ActionData>(read, { values, fieldErrors: {}, message: read.message });
  }
  const values = { amount: text(read.form, "amount"), sponsorEmail: text(read.form, "sponsorEmail"), message: text(read.form, "message") };
  const user = await getSessionUser(request, context);
  // This browser's checkout token: the same form sent again reopens the checkout it made (server/payments/checkout-reuse.ts).
  const browserToken = readCheckoutToken(request.headers.get("Cookie")) ?? newCheckoutToken();
  const client = { ip: context.clientIp, browserToken };
  const result = await startSponsorCheckout(context.db, context.payments, target, values, user?.id ?? null, client, {
    platformFeePercent: context.config.PLATFORM_FEE_PERCENT,
    publicOrigin: context.config.PUBLIC_ORIGIN,
  });
  if (result.kind === "SUCCESS") {
    // The provider's hosted checkout: the only redirect off our own paths, and only to where that provider hosts checkouts.
    const url = providerCheckoutUrl(result.url, { provider: context.payments.name, publicOrigin: context.config.PUBLIC_ORIGIN, stripeApiUrl: context.config.STRIPE_API_URL });
    const cookie = checkoutCookie(browserToken, new URL(context.config.PUBLIC_ORIGIN).protocol === "https:");
    if (url) {
      const toCheckout = seeOther(url);
      toCheckout.headers.set("Set-Cookie", cookie);
      throw toCheckout;
    }
    return answerRefusal<ActionData>({ code: "bad-gateway" }, { values, fieldErrors: {}, message: "The checkout could not be opened. Please try again in a moment." });
  }
  if (result.code === "invalid-argument" && "fieldErrors" in result) {
    const { postId, ...fieldErrors } = result.fieldErrors;
    // The fields are refused beside what was typed: the form was understood, its content was not (422).
    return answerRefusal<ActionData>({ code: "unprocessable-content" }, { values, fieldErrors, message: postId ?? null });
  }
  if (result.code === "not-found") refuse("not-found");
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
  const { offer, bioOrigin, signedInEmail } = loaderData;
  const busy = useNavigation().state !== "idle";
  const errors = actionData?.fieldErrors ?? {};
  const option = offer.option;
  const collectable = offer.kind === "tip" || (option !== null && option.minContributionCents > 0);
  const pageUrl = `${bioOrigin}/${offer.ending}`;

  if (offer.unavailable) {
    return (
      <div className="mx-auto max-w-xl px-4 py-10 sm:py-14">
        <h1 className="text-3xl font-bold">Sponsor checkout</h1>
        <div className="mt-6">
          <FormNotice kind="info">
            <p>{offer.unavailable}</p>
          </FormNotice>
        </div>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold">{offer.kind === "tip" ? `Send a tip to ${offer.payeeName}` : `Sponsor ${offer.payeeName}`}</h1>
      <section aria-labelledby="what-heading" className="mt-6 rounded-2xl border border-primary/15 bg-secondary/20 p-5">
        <h2 id="what-heading" className="text-lg font-bold">
          {option ? option.title : "A tip"}
        </h2>
        <p className="mt-1 text-muted">
          {option
            ? option.minContributionCents > 0
              ? `Minimum contribution ${formatMoney(option.minContributionCents, option.currency)}`
              : NO_PLATFORM_FUNDS_MESSAGE
            : "Any amount you choose, paid to the creator."}
        </p>
        <p className="mt-2 text-sm">
          To <a href={pageUrl}>{offer.payeeName}</a>
        </p>
      </section>

      {!offer.takesPayments ? (
        <div className="mt-6">
          <FormNotice kind="info">
            <p>{offer.payeeName} cannot take payments yet. Nothing can be paid through this page for now.</p>
          </FormNotice>
        </div>
      ) : !collectable ? (
        <div className="mt-6">
          <FormNotice kind="info">
            <p>{NO_PLATFORM_FUNDS_MESSAGE}. Contact {offer.payeeName} directly to arrange it.</p>
          </FormNotice>
        </div>
      ) : (
        <Form method="post" noValidate className="mt-6 space-y-5">
          {actionData?.message ? <FormNotice>{actionData.message}</FormNotice> : null}
          <TextField
            label="Amount (USD)"
            name="amount"
            inputMode="decimal"
            autoComplete="off"
            defaultValue={actionData?.values.amount ?? (offer.suggestedAmount ? amountInputText(offer.suggestedAmount) : "")}
            error={errors.amount}
            hint={option ? `At least ${formatMoney(option.minContributionCents, option.currency)}. Whole dollars or dollars and cents, like 25 or 25.50.` : "Whole dollars or dollars and cents, like 25 or 25.50."}
          />
          <TextField
            label="Sponsor email"
            name="sponsorEmail"
            type="email"
            autoComplete="email"
            defaultValue={actionData?.values.sponsorEmail ?? signedInEmail}
            error={errors.sponsorEmail}
            hint="Optional. Your receipt goes here; leave it empty and no receipt is sent."
          />
          <TextArea
            label="Message"
            name="message"
            rows={4}
            defaultValue={actionData?.values.message ?? ""}
            error={errors.message}
            hint={`${offer.payeeName} sees it with your payment.`}
          />
          <p className="text-sm text-muted">You pay on the payment provider's secure page next. Nothing is charged until you confirm there.</p>
          <button type="submit" className={primaryButton} disabled={busy}>
            {busy ? "Opening checkout…" : "Proceed to Checkout"}
          </button>
        </Form>
      )}
    </div>
  );
}
