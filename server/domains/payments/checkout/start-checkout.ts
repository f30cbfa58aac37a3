import type { Db } from "#server/platform/db/client";
import type { SponsorSessionKind } from "#server/platform/db/schema";
import { domainError, type DomainError } from "#server/platform/errors";
import { readPublicPage } from "#server/domains/bio/public-page";
import { OWNER_UNAVAILABLE_PAYMENT_MESSAGE } from "#server/domains/accounts/active-owner";
import type { SponsorshipChoice } from "#server/domains/bio/sponsorship-options";
import { readCreatorLook, type CreatorLook } from "#server/domains/bio/creator-look";
import { themeOf } from "#isomorphic/bio-theme";
import { buildSponsorSession, minimumTipMessage, type BuildResult, type CheckoutClient, type CheckoutOptions, type FieldErrors } from "#server/domains/payments/checkout/sponsor-session";
import { amountProblem, DEFAULT_CURRENCY } from "#isomorphic/payment-limits";
import { amountInputText, parseAmountInput } from "#isomorphic/amount-input";
import { formatMoney } from "#server/domains/payments/ledger/money";
import type { PaymentProvider } from "#server/providers/payments/port";

/**
 * The sponsor checkout page (SPEC §2.5 "Sponsor checkout") around
 * buildSponsorSession: what the page offers, the amount as people type it,
 * and where the browser may be sent afterwards.
 */

/** What the checkout page shows before anything is typed: to whom, and for what. */
export type CheckoutOffer = {
  ending: string;
  payeeName: string;
  /** The owner's payout account is complete; otherwise the page says so and shows no form. */
  takesPayments: boolean;
  /** Set when the owner's account is disabled (server/domains/accounts/active-owner.ts): the page shows only this and no form. */
  unavailable: string | null;
  kind: SponsorSessionKind;
  /** The sponsorship option (kind "sponsorship" only). */
  option: SponsorshipChoice | null;
  /**
   * Minor units the amount field starts with: the option's minimum, or for a
   * tip the amount the fan picked on the bio page (when it can be paid), else blank.
   */
  suggestedAmount: number | null;
  /** The creator's face, name and colours, which the page wears. */
  look: CreatorLook;
  /** Tips: whether the creator takes them now, their preset amounts and the least one may be (minor units). */
  acceptsTips: boolean;
  tipPresets: number[];
  tipMinimum: number;
  /** The page shows its supporter wall: the form says the name and message go on it unless kept private. */
  showsWall: boolean;
};

export type CheckoutTarget = {
  ending: string;
  kind: SponsorSessionKind;
  postId: string | null;
  /** `amount=500`: the preset the fan picked on the bio page, in minor units (only a suggestion: the form's amount is what is charged). */
  amount?: number | null;
};

/** A whole number of minor units, as the bio page's preset links carry it; null for anything else. */
function suggestedFromQuery(value: string | null): number | null {
  return value !== null && /^[1-9]\d{0,8}$/.test(value) ? Number(value) : null;
}

/** `?page=…&option=…` or `?page=…&kind=tip[&amount=…]` (the bio page's links) as a target; null when it names neither. */
export function checkoutTarget(search: URLSearchParams): CheckoutTarget | null {
  const ending = search.get("page") ?? "";
  const option = search.get("option");
  if (!ending) return null;
  if (option) return { ending, kind: "sponsorship", postId: option, amount: null };
  if (search.get("kind") === "tip") return { ending, kind: "tip", postId: null, amount: suggestedFromQuery(search.get("amount")) };
  return null;
}

/** The offer behind a target, or not-found (unknown page, or an option the page doesn't offer now). */
export async function loadCheckoutOffer(db: Db, target: CheckoutTarget): Promise<{ kind: "SUCCESS"; offer: CheckoutOffer } | DomainError<"not-found">> {
  const page = await readPublicPage(db, target.ending);
  if (!page) return domainError("not-found", "There is no such page.");
  const tips = { acceptsTips: page.acceptTips, tipPresets: page.tipPresets, tipMinimum: page.tipMinimum, showsWall: page.wall !== null };
  if (!page.ownerActive) {
    // Nothing of a disabled owner's page is shown: not their face, not their colours.
    const look = { name: page.name, ending: page.customEnding, photoId: null, theme: themeOf(null) };
    const offer: CheckoutOffer = {
      ending: page.customEnding,
      payeeName: page.name,
      takesPayments: false,
      unavailable: OWNER_UNAVAILABLE_PAYMENT_MESSAGE,
      kind: target.kind,
      option: null,
      suggestedAmount: null,
      look,
      ...tips,
    };
    return { kind: "SUCCESS", offer };
  }
  const look = (await readCreatorLook(db, page.id)) ?? { name: page.name, ending: page.customEnding, photoId: null, theme: themeOf(null) };
  let option: SponsorshipChoice | null = null;
  if (target.kind === "sponsorship") {
    option = page.sponsorships.find((s) => s.id === target.postId) ?? null;
    if (!option) return domainError("not-found", "This page doesn't offer that sponsorship.");
  }
  return {
    kind: "SUCCESS",
    offer: {
      ending: page.customEnding,
      payeeName: page.name,
      takesPayments: page.takesPayments,
      unavailable: null,
      kind: target.kind,
      option,
      suggestedAmount: option ? (option.minContributionCents > 0 ? option.minContributionCents : null) : tipSuggestion(target.amount ?? null, page.tipMinimum),
      look,
      ...tips,
    },
  };
}

/** The picked amount when it could be paid as it is; otherwise the field starts blank. */
function tipSuggestion(amount: number | null, minimum: number): number | null {
  if (amount === null || amount < minimum || amountProblem(amount, DEFAULT_CURRENCY)) return null;
  return amount;
}

export { amountInputText, parseAmountInput };

export type CheckoutFormValues = {
  amount: string;
  sponsorEmail: string;
  message: string;
  /** "Your name (shown to {creator})", optional. */
  supporterName?: string;
  /** "Keep my support private". */
  private?: boolean;
};

/**
 * The form sent: the amount read from what was typed, then buildSponsorSession
 * (which decides and checks everything again). A field the person left wrong
 * is reported together with the others, so one submit shows every problem.
 */
export async function startSponsorCheckout(
  db: Db,
  provider: PaymentProvider,
  target: CheckoutTarget,
  values: CheckoutFormValues,
  sponsorUid: string | null,
  client: CheckoutClient,
  options: CheckoutOptions,
): Promise<BuildResult> {
  const amount = parseAmountInput(values.amount);
  const result = await buildSponsorSession(
    db,
    provider,
    {
      ending: target.ending,
      kind: target.kind,
      postId: target.postId,
      amount: amount ?? Number.NaN,
      sponsorEmail: values.sponsorEmail,
      message: values.message,
      supporterName: values.supporterName ?? "",
      private: values.private === true,
      sponsorUid,
      client,
    },
    options,
  );
  if (result.kind !== "ERROR" || result.code !== "invalid-argument") return result;
  const fieldErrors: FieldErrors = { ...result.fieldErrors };
  if (amount === null) fieldErrors.amount = values.amount.trim() ? "Enter an amount in dollars, like 25 or 25.50" : "Required";
  else if (!fieldErrors.amount || target.kind === "tip") {
    // buildSponsorSession checks the option's or the tip's minimum only once the fields are fine: say it now too.
    // Below the creator's tip minimum, that minimum is the one worth saying (it is at least the provider's).
    const loaded = await loadCheckoutOffer(db, target);
    const offer = loaded.kind === "SUCCESS" ? loaded.offer : null;
    const option = offer?.option ?? null;
    if (option && option.minContributionCents > 0 && amount < option.minContributionCents) {
      fieldErrors.amount = `The minimum contribution is ${formatMoney(option.minContributionCents, option.currency)}`;
    } else if (offer && target.kind === "tip" && amount < offer.tipMinimum) {
      fieldErrors.amount = minimumTipMessage(offer.tipMinimum, DEFAULT_CURRENCY);
    }
  }
  return domainError("invalid-argument", Object.values(fieldErrors)[0] ?? result.message, { fieldErrors });
}

/**
 * The one redirect off our own paths (the project's rule: every redirect goes
 * through safeRedirectPath): the provider's hosted checkout. Its address comes
 * from the provider's API answer, never from the request, and is still only
 * followed when it is one of that provider's checkout pages (it says which,
 * `hostedPages`). Anything else is null and the page shows an error instead
 * of leaving.
 */
export function providerCheckoutUrl(url: string, provider: Pick<PaymentProvider, "hostedPages">): string | null {
  return provider.hostedPages.follow(url, "checkout");
}

/** A session id as buildSponsorSession makes them: anything else is not looked up. */
export function isSponsorSessionId(value: string | null): value is string {
  return typeof value === "string" && /^ss_[0-9a-f]{24}$/.test(value);
}
