import { Link, Text } from "@react-email/components";
import { colors, EmailLayout, paragraphStyle } from "./EmailLayout";

type MemberPostMailProps = {
  appName: string;
  supportEmail: string;
  /** Whose page the membership is of, as its public name. */
  pageName: string;
  subject: string;
  /** The post's paragraphs (single line breaks kept inside each). */
  paragraphs: string[];
  /** The member's signed link to this post on the members-only page. */
  postUrl: string;
  /** The member's signed one-click link that turns posts' mail off. */
  muteUrl: string;
};

const footerText = { margin: 0, fontSize: "13px", lineHeight: "20px", color: colors.muted } as const;

/** A creator's post to their members: the whole text, a link to it on the members' page, and how to stop posts' mail. */
export function MemberPostMail({ appName, supportEmail, pageName, subject, paragraphs, postUrl, muteUrl }: MemberPostMailProps) {
  return (
    <EmailLayout
      appName={appName}
      supportEmail={supportEmail}
      preview={`A post for members of ${pageName}`}
      heading={subject}
      buttonLabel="Read it on your members' page"
      url={postUrl}
      footer={
        <>
          <Text style={footerText}>{`You get this email because you are a member of ${pageName}. Receipts for your membership still come if you stop posts.`}</Text>
          <Text style={{ ...footerText, marginTop: "8px" }}>
            <Link href={muteUrl} style={{ color: colors.primary }}>
              Stop emails of posts
            </Link>
          </Text>
        </>
      }
    >
      <Text style={{ ...paragraphStyle, color: colors.muted }}>{`From ${pageName}, for its members:`}</Text>
      {paragraphs.map((paragraph, index) => (
        <Text key={index} style={{ ...paragraphStyle, whiteSpace: "pre-line" }}>
          {paragraph}
        </Text>
      ))}
    </EmailLayout>
  );
}
