import { render } from "@react-email/render";
import type { MailMessage } from "#server/platform/email/mailer";
import type { EmailSite } from "#server/platform/email/messages";
import { WebhookEndpointDisabledMail } from "#server/platform/email/templates/WebhookEndpointDisabledMail";

/** Where an owner manages (and re-enables) their endpoints. */
export const WEBHOOKS_PAGE_PATH = "/app/account/webhooks";

type DisabledMailInput = {
  to: string;
  site: EmailSite & { publicOrigin: string };
  endpoint: { id: string; url: string; description: string };
  reason: string;
};

/** The mail sent (with the transaction that disables the endpoint) to its owner. */
export async function endpointDisabledEmail({ to, site, endpoint, reason }: DisabledMailInput): Promise<MailMessage> {
  const url = `${site.publicOrigin}${WEBHOOKS_PAGE_PATH}`;
  const email = (
    <WebhookEndpointDisabledMail appName={site.appName} supportEmail={site.supportEmail} endpointUrl={endpoint.url} description={endpoint.description} reason={reason} url={url} />
  );
  const [html, text] = await Promise.all([render(email), render(email, { plainText: true })]);
  return { to, subject: `Webhooks to ${new URL(endpoint.url).host} are paused`, html, text, meta: { kind: "webhook-endpoint-disabled", url, endpointId: endpoint.id } };
}
