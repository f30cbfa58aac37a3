import { render } from "@react-email/render";
import type { ReactElement } from "react";
import type { MailMessage } from "./mailer";
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
