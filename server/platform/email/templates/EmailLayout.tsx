import { Body, Button, Container, Head, Heading, Hr, Html, Link, Preview, Section, Text } from "@react-email/components";
import type { ReactNode } from "react";

/** The product's colours (app/app.css), repeated here because mail clients cannot read our stylesheet. */
export const colors = {
  primary: "#603f8b",
  secondary: "#b4fee7",
  accent: "#fd49a0",
  ink: "#1f1235",
  muted: "#5b5670",
  page: "#f6f3fa",
} as const;

/** What every account email knows about the site and the reader. */
export type AccountEmailProps = { appName: string; url: string; supportEmail: string; name?: string };

type EmailLayoutProps = {
  appName: string;
  supportEmail: string;
  /** Inbox preview line; hidden in the body and left out of the plain-text version. */
  preview: string;
  heading: string;
  buttonLabel: string;
  url: string;
  children: ReactNode;
  /** Why the reader gets this mail; account emails say "someone used this address", notification mail says how to stop it. */
  footer?: ReactNode;
};

export const paragraphStyle = { margin: "0 0 12px", fontSize: "16px", lineHeight: "24px" } as const;

const font = 'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

// Sentences with a value in them are one template string: JSX would split them with <!-- --> markers.

/** Header, one call to action with its raw link, and the footer every account email shares. */
export function EmailLayout({ appName, supportEmail, preview, heading, buttonLabel, url, children, footer }: EmailLayoutProps) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{preview}</Preview>
      <Body style={{ margin: 0, padding: "24px 0", backgroundColor: colors.page, color: colors.ink, fontFamily: font }}>
        <Container style={{ maxWidth: "560px", backgroundColor: "#ffffff", borderRadius: "16px", overflow: "hidden" }}>
          <Section style={{ backgroundColor: colors.primary, borderBottom: `4px solid ${colors.accent}`, padding: "20px 32px" }}>
            <Text style={{ margin: 0, color: "#ffffff", fontSize: "20px", fontWeight: 700 }}>{appName}</Text>
          </Section>
          <Section style={{ padding: "32px" }}>
            <Heading as="h1" style={{ margin: "0 0 16px", fontSize: "24px", lineHeight: "32px", color: colors.ink }}>
              {heading}
            </Heading>
            {children}
            <Section style={{ margin: "28px 0" }}>
              <Button
                href={url}
                style={{
                  backgroundColor: colors.primary,
                  color: "#ffffff",
                  borderRadius: "8px",
                  padding: "14px 28px",
                  fontSize: "16px",
                  fontWeight: 700,
                  textDecoration: "none",
                }}
              >
                {buttonLabel}
              </Button>
            </Section>
            {/* Some clients block buttons; the raw link always works. The plain-text version has no
                button (it already reads "label URL"), so this part is left out of it. */}
            <Text data-skip-in-text="true" style={{ margin: "0 0 4px", fontSize: "14px", color: colors.muted }}>
              If the button doesn&apos;t work, copy this link into your browser:
            </Text>
            <Link data-skip-in-text="true" href={url} style={{ fontSize: "14px", color: colors.primary, wordBreak: "break-all" }}>
              {url}
            </Link>
          </Section>
          <Hr style={{ margin: 0, borderColor: colors.secondary, borderWidth: "2px 0 0" }} />
          <Section style={{ padding: "20px 32px", backgroundColor: "#f3fffb" }}>
            <Text style={{ margin: "0 0 8px", fontSize: "13px", lineHeight: "20px", color: colors.muted }}>
              Questions? Write to <Link href={`mailto:${supportEmail}`} style={{ color: colors.primary }}>{supportEmail}</Link>.
            </Text>
            {footer ?? (
              <Text style={{ margin: 0, fontSize: "13px", lineHeight: "20px", color: colors.muted }}>
                {`You received this because someone used this address on ${appName}. If it wasn't you, ignore this email.`}
              </Text>
            )}
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

/** "Hi Ada," or just "Hi," when we have no name. */
export function Greeting({ name }: { name?: string }) {
  const trimmed = name?.trim();
  return <Text style={paragraphStyle}>{trimmed ? `Hi ${trimmed},` : "Hi,"}</Text>;
}
