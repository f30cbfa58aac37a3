import { render } from "@react-email/render";
import type { ReactElement } from "react";
import type { MailMessage } from "./mailer";
import { NotificationMail } from "./templates/NotificationMail";
import { PaymentMail } from "./templates/PaymentMail";
import { ReportOutcomeMail } from "./templates/ReportOutcomeMail";
import { ResetPassword } from "./templates/ResetPassword";
import { VerifyEmail } from "./templates/VerifyEmail";

/** Site facts every email shows (from config: APP_NAME, SUPPORT_EMAIL). */
export type EmailSite = { appName: string; supportEmail: string };

type AccountEmailInput = { to: string; name?: string; url: string; site: EmailSite };

/** Both bodies come from one component, so the HTML and plain-text versions never disagree. */
async function renderBodies(email: ReactElement): Promise<Pick<MailMessage, "html" | "text">> {
  const [html, text] = await Promise.all([render(email), render(email, { plainText: true })]);
  return { html, text };
}

export async function verificationEmail({ to, name, url, site }: AccountEmailInput): Promise<MailMessage> {
  const bodies = await renderBodies(<VerifyEmail appName={site.appName} supportEmail={site.supportEmail} url={url} name={name} />);
  return { to, subject: `Verify your email for ${site.appName}`, ...bodies, meta: { kind: "verify-email", url } };
}

export async function passwordResetEmail({ to, name, url, site }: AccountEmailInput): Promise<MailMessage> {
  const bodies = await renderBodies(<ResetPassword appName={site.appName} supportEmail={site.supportEmail} url={url} name={name} />);
  return { to, subject: `Reset your ${site.appName} password`, ...bodies, meta: { kind: "reset-password", url } };
}

type PaymentEmailInput = {
  to: string;
  site: EmailSite;
  /** Formatted, e.g. "$25.00". */
  amount: string;
  payeeName: string;
  /** Our session id: kept in the mail's meta for our records and tests, never written into the mail a fan reads. */
  reference: string;
  /** When the payment went through. */
  paidAt: Date;
  /**
   * The sponsor's own message, only when `to` is their verified account
   * address: to any other address a receipt carries no words of the payer's,
   * so it cannot carry someone's text to a stranger.
   */
  message: string | null;
  url: string;
};

/**
 * The sponsor's receipt: what they paid, to whom, and when. No internal id:
 * a fan who writes to the creator or to support is found by this address,
 * the date and the amount.
 */
export async function sponsorReceiptEmail({ to, site, amount, payeeName, reference, paidAt, message, url }: PaymentEmailInput): Promise<MailMessage> {
  const date = paidAt.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
  const bodies = await renderBodies(
    <PaymentMail
      appName={site.appName}
      supportEmail={site.supportEmail}
      preview={`Your payment of ${amount} to ${payeeName} went through.`}
      heading={`Thank you for supporting ${payeeName}`}
      paragraphs={[
        `Your payment of ${amount} to ${payeeName} went through on ${date} (UTC).`,
        ...(message ? [`Your message: “${message}”`] : []),
        `Keep this email as your receipt. If you write to ${payeeName} or us about this payment, write from this address and give the date and amount.`,
      ]}
      buttonLabel={`Visit ${payeeName}`}
      url={url}
    />,
  );
  return { to, subject: `Your receipt: ${amount} to ${payeeName}`, ...bodies, meta: { kind: "sponsor-receipt", url, reference } };
}

type NotificationEmailInput = {
  to: string;
  site: EmailSite;
  /** The notification's kind, and how My Account names it. */
  kind: string;
  kindLabel: string;
  title: string;
  message: string;
  buttonLabel: string;
  /** Absolute. */
  url: string;
  unsubscribeUrl: string;
  preferencesUrl: string;
};

/**
 * A notification by mail (ADR 0025): subject = the notification's title, body = its
 * message and call to action, a footer with Unsubscribe; the one-click
 * headers (RFC 8058) travel with it through the outbox.
 */
export async function notificationEmail(input: NotificationEmailInput): Promise<MailMessage> {
  const { to, site, kind, kindLabel, title, message, buttonLabel, url, unsubscribeUrl, preferencesUrl } = input;
  const bodies = await renderBodies(
    <NotificationMail
      appName={site.appName}
      supportEmail={site.supportEmail}
      title={title}
      message={message}
      buttonLabel={buttonLabel}
      url={url}
      kindLabel={kindLabel}
      unsubscribeUrl={unsubscribeUrl}
      preferencesUrl={preferencesUrl}
    />,
  );
  return {
    to,
    subject: title,
    ...bodies,
    meta: { kind: `notification:${kind}`, url },
    headers: { "List-Unsubscribe": `<${unsubscribeUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}

type SuspensionEmailInput = {
  to: string;
  site: EmailSite & { publicOrigin: string };
  reason: string;
  /** When it ends by itself; null: until staff lift it. */
  until: Date | null;
};

const longDate = (at: Date) => at.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });

/** The account was suspended: why, until when, and how to appeal (ADR 0051). */
export async function suspensionEmail({ to, site, reason, until }: SuspensionEmailInput): Promise<MailMessage> {
  const bodies = await renderBodies(
    <PaymentMail
      appName={site.appName}
      supportEmail={site.supportEmail}
      preview={`Your ${site.appName} account has been suspended.`}
      heading="Your account has been suspended"
      paragraphs={[
        `Our staff suspended your ${site.appName} account. You cannot sign in, and your bio pages and opportunities are not shown and take no payments while it lasts.`,
        `Reason: ${reason}`,
        until ? `The suspension ends on ${longDate(until)} (UTC); everything comes back then.` : "The suspension lasts until our staff lift it.",
        `To appeal, write to ${site.supportEmail} from this address and tell us why it should be lifted.`,
      ]}
      buttonLabel="Read our policies"
      url={`${site.publicOrigin}/`}
    />,
  );
  return { to, subject: `Your ${site.appName} account has been suspended`, ...bodies, meta: { kind: "account-suspended" } };
}

/** The suspension is over: they can sign in, and their pages are back. */
export async function suspensionLiftedEmail({ to, site }: Omit<SuspensionEmailInput, "reason" | "until">): Promise<MailMessage> {
  const bodies = await renderBodies(
    <PaymentMail
      appName={site.appName}
      supportEmail={site.supportEmail}
      preview={`Your ${site.appName} account is active again.`}
      heading="Your account is active again"
      paragraphs={[`The suspension of your ${site.appName} account has been lifted. You can sign in again, and your bio pages and opportunities are back.`]}
      buttonLabel="Sign in"
      url={`${site.publicOrigin}/signin`}
    />,
  );
  return { to, subject: `Your ${site.appName} account is active again`, ...bodies, meta: { kind: "account-suspension-lifted" } };
}

type ReportOutcomeEmailInput = {
  to: string;
  site: EmailSite;
  /** "the bio page maya" / "the opportunity “Summer tour”", as the reporter saw it. */
  itemLabel: string;
  outcome: "actioned" | "dismissed";
  /** The reporting guidelines page, absolute. */
  guidelinesUrl: string;
};

/** The outcome of a report, to each reporter who gave an address (ADR 0050). */
export async function reportOutcomeEmail({ to, site, itemLabel, outcome, guidelinesUrl }: ReportOutcomeEmailInput): Promise<MailMessage> {
  const paragraphs =
    outcome === "actioned"
      ? [`Thank you for your report of ${itemLabel}. We reviewed it and found that it broke our rules, so we took it down.`]
      : [`Thank you for your report of ${itemLabel}. We reviewed it and found that it does not break our rules, so it stays up.`];
  paragraphs.push("To protect everyone's privacy, we can't share more about the action we took. Thank you for helping keep the community safe.");
  const bodies = await renderBodies(
    <ReportOutcomeMail appName={site.appName} supportEmail={site.supportEmail} heading="We reviewed your report" paragraphs={paragraphs} buttonLabel="Read our reporting guidelines" url={guidelinesUrl} />,
  );
  return { to, subject: `Your report to ${site.appName}: we reviewed it`, ...bodies, meta: { kind: `report-${outcome}`, url: guidelinesUrl } };
}

type MemberLinkEmailInput = { to: string; site: EmailSite; pageName: string; tierName: string; url: string };

/** A member asked for new links: the one link that works from now on (every earlier one stopped). */
export async function memberLinkEmail({ to, site, pageName, tierName, url }: MemberLinkEmailInput): Promise<MailMessage> {
  const bodies = await renderBodies(
    <PaymentMail
      appName={site.appName}
      supportEmail={site.supportEmail}
      preview={`Your new link to manage your ${tierName} membership of ${pageName}.`}
      heading={`Your new member link for ${pageName}`}
      paragraphs={[
        `You asked for a new link to your ${tierName} membership of ${pageName}. Use the button below from now on: every link we sent you before no longer works.`,
        "If you did not ask for this, someone who had one of your earlier links did: that link no longer works, and this one is sent only to you.",
      ]}
      buttonLabel="Manage my membership"
      url={url}
    />,
  );
  return { to, subject: `Your new member link for ${pageName}`, ...bodies, meta: { kind: "membership-new-link", url } };
}
