import { Text } from "@react-email/components";
import { EmailLayout, Greeting, paragraphStyle, type AccountEmailProps } from "./EmailLayout";

export function VerifyEmail({ appName, url, supportEmail, name }: AccountEmailProps) {
  return (
    <EmailLayout
      appName={appName}
      supportEmail={supportEmail}
      preview={`Confirm your email address to finish setting up ${appName}.`}
      heading="Confirm your email address"
      buttonLabel="Verify email"
      url={url}
    >
      <Greeting name={name} />
      <Text style={paragraphStyle}>
        {`Confirm that this is your email address to finish setting up your ${appName} account.`}
      </Text>
    </EmailLayout>
  );
}
