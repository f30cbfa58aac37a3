import { safeRedirectPath } from "#server/platform/http/redirects";

/**
 * Where a notification's call-to-action button goes (SPEC §2.5 "Notifications").
 * Notifications keep the destination they were written with; the rewrite happens when
 * the link is shown, so notifications written under the spec's older names — and any
 * producer still using them — land on today's routes.
 */
export const CTA_REWRITES: Readonly<Record<string, string>> = {
  "/app/my-sponsors/all": "/app/account/sponsors",
  "/app/post/opportunity": "/app/opportunities/new",
  "/app/bizbio/new": "/app/account/bizbio/new",
  // SPEC: "/app/payments/setup to the account payments route" — My Payments, not the setup screen.
  "/app/payments/setup": "/app/account/payments",
};

/** The button's words when a notification has a destination but no text (ADR 0026). */
export const DEFAULT_CTA_TEXT = "Open";

export type CallToAction = { href: string; text: string; external: boolean };

const MAX_LENGTH = 2048;

/**
 * The link to show, or null for no button. A same-site path (one leading "/",
 * nothing a browser could read as another host) or an absolute http(s) URL is
 * kept; anything else — javascript:, data:, "//host", control characters — is
 * dropped rather than "fixed", since nobody can say what it was meant to be.
 */
export function callToAction(destination: string | null | undefined, buttonText: string | null | undefined): CallToAction | null {
  const href = ctaHref(destination);
  if (!href) return null;
  const text = buttonText?.trim() || DEFAULT_CTA_TEXT;
  return { href, text, external: !href.startsWith("/") };
}

export function ctaHref(destination: string | null | undefined): string | null {
  if (typeof destination !== "string") return null;
  const given = destination.trim();
  if (given.length === 0 || given.length > MAX_LENGTH) return null;
  if (given.startsWith("/")) return sameSitePath(given);
  return absoluteWebUrl(given);
}

function sameSitePath(path: string): string | null {
  // safeRedirectPath is the site's one check for "a path on this site" (no //, /\, controls, lookalikes).
  const safe = safeRedirectPath(path, "");
  if (!safe) return null;
  const cut = safe.search(/[?#]/);
  const pathname = cut === -1 ? safe : safe.slice(0, cut);
  const rest = cut === -1 ? "" : safe.slice(cut);
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  const rewritten = Object.hasOwn(CTA_REWRITES, trimmed) ? CTA_REWRITES[trimmed] : undefined;
  return rewritten ? `${rewritten}${rest}` : safe;
}

function absoluteWebUrl(value: string): string | null {
  // Controls and whitespace inside a URL are what browsers silently strip ("java\tscript:").
  if (hasControlSpaceOrBackslash(value)) return null;
  if (!/^https?:\/\//i.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname || url.username || url.password) return null;
  return url.href;
}

function hasControlSpaceOrBackslash(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code <= 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x5c) return true;
  }
  return false;
}
