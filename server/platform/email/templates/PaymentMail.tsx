import { Text } from "@react-email/components";
import { EmailLayout, paragraphStyle } from "./EmailLayout";

type PaymentMailProps = {
  appName: string;
  supportEmail: string;
  preview: string;
  heading: string;
  /** The body, one sentence a paragraph; each is a whole string so values are not split apart. */
  paragraphs: string[];
  buttonLabel: string;
  url: string;
};

/** The sponsor's receipt: a few sentences and one link. */
export function PaymentMail({ appName, supportEmail, preview, heading, paragraphs, buttonLabel, url }: PaymentMailProps) {
  return (
    <EmailLayout appName={appName} supportEmail={supportEmail} preview={preview} heading={heading} buttonLabel={buttonLabel} url={url}>
      {paragraphs.map((paragraph) => (
        <Text key={paragraph} style={paragraphStyle}>
          {paragraph}
        </Text>
      ))}
    </EmailLayout>
  );
}
