import { Text } from "@react-email/components";
import { EmailLayout, Greeting, paragraphStyle, type AccountEmailProps } from "./EmailLayout";

export function ResetPassword({ appName, url, supportEmail, name }: AccountEmailProps) {
  return (
    <EmailLayout
      appName={appName}
      supportEmail={supportEmail}
      preview={`Choose a new password for your ${appName} account.`}
      heading="Reset your password"
      buttonLabel="Choose a new password"
      url={url}
    >
      <Greeting name={name} />
      <Text style={paragraphStyle}>
        {`Someone asked to reset the password for your ${appName} account. Choose a new one with the button below.`}
      </Text>
      <Text style={paragraphStyle}>Until you do, your current password keeps working.</Text>
    </EmailLayout>
  );
}
