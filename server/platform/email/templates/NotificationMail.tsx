import { Link, Text } from "@react-email/components";
import { colors, EmailLayout, paragraphStyle } from "./EmailLayout";

type NotificationMailProps = {
  appName: string;
  supportEmail: string;
  title: string;
  message: string;
  buttonLabel: string;
  url: string;
  /** "payment received", said in the footer's "because …". */
  kindLabel: string;
  unsubscribeUrl: string;
  preferencesUrl: string;
};

const footerText = { margin: 0, fontSize: "13px", lineHeight: "20px", color: colors.muted } as const;

/** A notification sent by mail (ADR 0025): its title and message, one link, and how to stop this kind of mail. */
export function NotificationMail({ appName, supportEmail, title, message, buttonLabel, url, kindLabel, unsubscribeUrl, preferencesUrl }: NotificationMailProps) {
  return (
    <EmailLayout
      appName={appName}
      supportEmail={supportEmail}
      preview={message}
      heading={title}
      buttonLabel={buttonLabel}
      url={url}
      footer={
        <>
          <Text style={footerText}>{`You get this email because you chose to receive “${kindLabel}” notifications from ${appName} by email.`}</Text>
          <Text style={{ ...footerText, marginTop: "8px" }}>
            <Link href={unsubscribeUrl} style={{ color: colors.primary }}>
              Unsubscribe
            </Link>
            {" · "}
            <Link href={preferencesUrl} style={{ color: colors.primary }}>
              Manage email preferences
            </Link>
          </Text>
        </>
      }
    >
      <Text style={paragraphStyle}>{message}</Text>
    </EmailLayout>
  );
}
