import { render } from "@react-email/render";
import type { ReactElement } from "react";
import type { MailMessage } from "./mailer";
import type { EmailSite } from "./messages";
import { PaymentMail } from "./templates/PaymentMail";

/**
 * The mails a member gets about their membership (ADR 0084), to the address they gave the
 * checkout, with or without an account. Each carries their signed member link (`memberUrl`): the
 * page where they see the membership, change its tier or card, and cancel. Amounts come formatted.
 */
type MembershipMailBase = {
  to: string;
  site: EmailSite;
  /** The creator's page, as the member knows it ("Maya Makes"). */
  pageName: string;
  tierName: string;
  /** Absolute: the member page, opened without signing in. */
  memberUrl: string;
  /** Our membership id: kept in the mail's meta for our records and tests, never written into the mail. */
  reference: string;
};

async function renderBodies(email: ReactElement): Promise<Pick<MailMessage, "html" | "text">> {
  const [html, text] = await Promise.all([render(email), render(email, { plainText: true })]);
  return { html, text };
}

const longDate = (at: Date) => at.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
const EVERY = { month: "every month", year: "every year" } as const;

const KEEP_LINK = "This email's button opens your member page without an account: there you can change your tier or card, or cancel at any time.";

async function membershipMail(
  input: MembershipMailBase,
  { kind, subject, heading, paragraphs, buttonLabel = "Open your member page" }: { kind: string; subject: string; heading: string; paragraphs: string[]; buttonLabel?: string },
): Promise<MailMessage> {
  const bodies = await renderBodies(
    <PaymentMail appName={input.site.appName} supportEmail={input.site.supportEmail} preview={paragraphs[0]!} heading={heading} paragraphs={paragraphs} buttonLabel={buttonLabel} url={input.memberUrl} />,
  );
  return { to: input.to, subject, ...bodies, meta: { kind, url: input.memberUrl, reference: input.reference } };
}

/** Joined: the first payment is the receipt's, and the tier's welcome message comes with it. */
export function membershipWelcomeEmail(
  input: MembershipMailBase & { amount: string; interval: "month" | "year"; paidAt: Date; nextPaymentAt: Date | null; welcomeMessage: string },
): Promise<MailMessage> {
  const welcome = input.welcomeMessage.trim();
  return membershipMail(input, {
    kind: "membership-welcome",
    subject: `Welcome: you're a ${input.tierName} member of ${input.pageName}`,
    heading: `Welcome to ${input.tierName}`,
    paragraphs: [
      `You're a ${input.tierName} member of ${input.pageName}. Your first payment of ${input.amount} went through on ${longDate(input.paidAt)} (UTC).`,
      input.nextPaymentAt
        ? `You'll be charged ${input.amount} ${EVERY[input.interval]} until you cancel; the next payment is on ${longDate(input.nextPaymentAt)}.`
        : `You'll be charged ${input.amount} ${EVERY[input.interval]} until you cancel.`,
      ...(welcome ? [`A message from ${input.pageName}: “${welcome}”`] : []),
      KEEP_LINK,
      "Keep this email as your receipt.",
    ],
  });
}

/** A renewal was paid: the receipt, and what comes next. */
export function membershipReceiptEmail(
  input: MembershipMailBase & { amount: string; paidAt: Date; nextPayment: { amount: string; at: Date } | null; endsAt: Date | null },
): Promise<MailMessage> {
  const next = input.endsAt
    ? `Your membership is cancelled and ends on ${longDate(input.endsAt)}: you will not be charged again.`
    : input.nextPayment
      ? `The next payment of ${input.nextPayment.amount} is on ${longDate(input.nextPayment.at)}, unless you cancel before then.`
      : null;
  return membershipMail(input, {
    kind: "membership-receipt",
    subject: `Your receipt: ${input.amount} to ${input.pageName} (${input.tierName})`,
    heading: `Thank you for staying a ${input.tierName} member`,
    paragraphs: [
      `Your ${input.tierName} membership of ${input.pageName} renewed: ${input.amount} was charged on ${longDate(input.paidAt)} (UTC).`,
      ...(next ? [next] : []),
      "Keep this email as your receipt.",
      KEEP_LINK,
    ],
  });
}

/** A renewal could not be charged: the provider retries; a new card on the member page fixes it. */
export function membershipPaymentFailedEmail(input: MembershipMailBase & { amount: string }): Promise<MailMessage> {
  return membershipMail(input, {
    kind: "membership-payment-failed",
    subject: `Your ${input.tierName} payment to ${input.pageName} failed`,
    heading: "We could not charge your card",
    paragraphs: [
      `We could not charge ${input.amount} for your ${input.tierName} membership of ${input.pageName}. We'll try again over the next few days, and you stay a member meanwhile.`,
      "To keep your membership, open your member page and press “Update card”: the renewal is tried again with the new card.",
    ],
    buttonLabel: "Update your card",
  });
}

/** Over: why, and that nothing more is charged. */
export function membershipEndedEmail(
  input: MembershipMailBase & { reason: "cancelled" | "payment_failed" | "ended_now"; endedAt: Date | null; creatorMessage: string | null },
): Promise<MailMessage> {
  const on = input.endedAt ? ` on ${longDate(input.endedAt)}` : "";
  const why = {
    cancelled: `Your ${input.tierName} membership of ${input.pageName} ended${on}, as it was cancelled.`,
    payment_failed: `Your ${input.tierName} membership of ${input.pageName} ended${on}: we could not charge your card for the renewal.`,
    ended_now: `Your ${input.tierName} membership of ${input.pageName} ended${on}.`,
  }[input.reason];
  const message = input.creatorMessage?.trim();
  return membershipMail(input, {
    kind: "membership-ended",
    subject: `Your ${input.tierName} membership of ${input.pageName} has ended`,
    heading: "Your membership has ended",
    paragraphs: [
      why,
      ...(message ? [`A message from ${input.pageName}: “${message}”`] : []),
      "You will not be charged again. You're welcome to join again at any time.",
    ],
  });
}
