import type { CSSProperties, ReactNode } from "react";
import { DEFAULT_THEME, type BioTheme } from "#isomorphic/bio-theme";
import { Avatar } from "#app/components/Avatar";

/** Who is being paid, as the checkout and its result pages show them (server/domains/bio/creator-look.ts). */
export type CreatorLookView = { name: string; ending: string; photoId: string | null; theme: BioTheme };

/**
 * The creator's colours as the bio host's CSS variables and as plain
 * colours, on the element that wraps the page: text on the page's ground
 * uses the pair the theme's contrast check holds (text on background).
 */
function themeStyle(theme: BioTheme): CSSProperties {
  return {
    "--bg": theme.background,
    "--fg": theme.text,
    "--btn": theme.button,
    "--btn-fg": theme.buttonText,
    backgroundColor: theme.background,
    color: theme.text,
  } as CSSProperties;
}

/** The page's main action in the creator's button colours, outlined so it stands out on the white card too. */
export function themedButtonStyle(theme: BioTheme): CSSProperties {
  return { backgroundColor: theme.button, color: theme.buttonText, borderColor: theme.buttonText };
}

export const themedButtonClass =
  "inline-flex min-h-12 items-center justify-center rounded-full border-2 px-6 py-3 text-center font-semibold no-underline hover:underline disabled:opacity-60";

/**
 * Checkout, success and cancelled wear the creator's look, not the marketing
 * site's (those routes set `handle = { siteChrome: false }`): their face and
 * name on their page's colours, the form or receipt on a white card (so
 * every form control keeps its contrast whatever the theme), a way back to
 * their page and a small "Powered by" line. Without a look (a payment we
 * don't know, or whose page is gone) it is the default theme, with no face.
 */
export function CreatorFrame({
  look,
  bioOrigin,
  appName,
  backLink = true,
  children,
}: {
  look: CreatorLookView | null;
  bioOrigin: string;
  appName: string;
  /** False where the card itself leads back to the creator's page (the thank-you), so the way back is named once. */
  backLink?: boolean;
  children: ReactNode;
}) {
  const theme = look?.theme ?? DEFAULT_THEME;
  const onGround = { color: theme.text };
  // Tight on a phone, so a tip's amount, message and button fit one screen; roomy from sm up.
  return (
    <div style={themeStyle(theme)} className="min-h-screen px-4 py-4 sm:py-12">
      <div className="mx-auto max-w-xl">
        {look ? (
          <div className="flex items-center justify-center gap-3 text-center sm:flex-col sm:gap-2">
            <Avatar name={look.name} photoId={look.photoId} size={56} className="flex-none shadow-md" />
            <p className="min-w-0 text-lg font-bold break-words sm:text-xl">{look.name}</p>
          </div>
        ) : null}
        <div className="mt-4 rounded-3xl bg-white p-5 text-ink shadow-lg sm:mt-6 sm:p-8">{children}</div>
        <p className="mt-6 flex flex-wrap items-center justify-center gap-x-5 gap-y-2 text-sm">
          {look && backLink ? (
            <a href={`${bioOrigin}/${look.ending}`} style={onGround} className="inline-flex min-h-11 items-center font-semibold">
              Back to {look.name}'s page
            </a>
          ) : null}
          <a href="/" style={onGround} className="inline-flex min-h-11 items-center">
            Powered by {appName}
          </a>
        </p>
      </div>
    </div>
  );
}
