import { Text } from "@react-email/components";
import { EmailLayout, paragraphStyle } from "./EmailLayout";

type WebhookEndpointDisabledMailProps = {
  appName: string;
  supportEmail: string;
  /** The endpoint's URL as its owner entered it (no secret in it: credentials in URLs are refused). */
  endpointUrl: string;
  description: string;
  reason: string;
  /** My Account's webhooks page, absolute. */
  url: string;
};

/** To an endpoint's owner: we stopped sending to it, why, and how to turn it back on. */
export function WebhookEndpointDisabledMail({ appName, supportEmail, endpointUrl, description, reason, url }: WebhookEndpointDisabledMailProps) {
  const paragraphs = [
    `We stopped sending webhooks to your endpoint ${endpointUrl}${description ? ` (“${description}”)` : ""}: it kept failing.`,
    `Why: ${reason}`,
    "Events that happen meanwhile are kept, and nothing was lost: once the endpoint answers again, open your webhooks in My Account and enable it; the waiting events are then sent in order. Each attempt's request and response are in the endpoint's delivery log.",
  ];
  return (
    <EmailLayout appName={appName} supportEmail={supportEmail} preview={paragraphs[0]!} heading="A webhook endpoint was disabled" buttonLabel="Open your webhooks" url={url}>
      {paragraphs.map((paragraph) => (
        <Text key={paragraph} style={paragraphStyle}>
          {paragraph}
        </Text>
      ))}
    </EmailLayout>
  );
}
