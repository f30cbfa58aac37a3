import { Text } from "@react-email/components";
import { EmailLayout, paragraphStyle } from "./EmailLayout";

type ReportOutcomeMailProps = {
  appName: string;
  supportEmail: string;
  heading: string;
  paragraphs: string[];
  buttonLabel: string;
  url: string;
};

/** To a reporter who gave an address: what came of their report (ADR 0050). Says nothing of the reported person's account. */
export function ReportOutcomeMail({ appName, supportEmail, heading, paragraphs, buttonLabel, url }: ReportOutcomeMailProps) {
  return (
    <EmailLayout appName={appName} supportEmail={supportEmail} preview={paragraphs[0] ?? heading} heading={heading} buttonLabel={buttonLabel} url={url}>
      {paragraphs.map((paragraph) => (
        <Text key={paragraph} style={paragraphStyle}>
          {paragraph}
        </Text>
      ))}
    </EmailLayout>
  );
}
