import { safeRedirectPath } from "#server/platform/http/redirects";
import { SandboxRequestError } from "./errors";
import { checkLink, type LinkCheck, signLink } from "./signing";

/** How long an onboarding link works (Stripe's account links last minutes; the form needs a few). */
export const ONBOARDING_LINK_SECONDS = 30 * 60;
/** How long a payouts dashboard link works (Stripe's login links are short-lived too). */
export const LOGIN_LINK_SECONDS = 15 * 60;

function parseUrl(value: string | null | undefined): URL | null {
  if (!value) return null;
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/**
 * Where the sandbox may send a browser back to: only a path on PUBLIC_ORIGIN,
 * checked by the site's own redirect rule. Anything else becomes `fallback`.
 */
export function safeReturnUrl(origin: string, value: string | null | undefined, fallback = "/app"): string {
  const url = parseUrl(value);
  const path = url && url.origin === origin ? safeRedirectPath(`${url.pathname}${url.search}${url.hash}`, fallback) : fallback;
  return `${origin}${path}`;
}

function requireOwnOrigin(origin: string, name: string, value: string): void {
  const url = parseUrl(value);
  if (!url || url.origin !== origin) throw new SandboxRequestError("url_invalid", `${name} must be a URL on ${origin}`);
}

const seconds = (now: Date) => Math.floor(now.getTime() / 1000);

/**
 * An onboarding link, signed with its own `linkId` (the account's current
 * one, accounts.ts): the signature proves the link is ours, the id that it
 * is still the one that works (single use, as Stripe's account links are).
 */
export function onboardingLink(origin: string, key: string, input: { accountId: string; linkId: string; returnUrl: string; refreshUrl: string }, now = new Date()) {
  requireOwnOrigin(origin, "return_url", input.returnUrl);
  requireOwnOrigin(origin, "refresh_url", input.refreshUrl);
  const expires = seconds(now) + ONBOARDING_LINK_SECONDS;
  const sig = signLink(key, ["onboarding", input.accountId, input.linkId, input.returnUrl, input.refreshUrl], expires);
  const query = new URLSearchParams({ link: input.linkId, return: input.returnUrl, refresh: input.refreshUrl, expires: String(expires), sig });
  return `${origin}/sandbox/onboarding/${input.accountId}?${query}`;
}

export type OnboardingLinkParams = { accountId: string; linkId: string; returnUrl: string; refreshUrl: string; expires: string | null; sig: string | null };

export function readOnboardingLink(accountId: string, search: URLSearchParams): OnboardingLinkParams {
  return { accountId, linkId: search.get("link") ?? "", returnUrl: search.get("return") ?? "", refreshUrl: search.get("refresh") ?? "", expires: search.get("expires"), sig: search.get("sig") };
}

export function checkOnboardingLink(key: string, link: OnboardingLinkParams, now = new Date()): LinkCheck {
  return checkLink(key, ["onboarding", link.accountId, link.linkId, link.returnUrl, link.refreshUrl], link.expires, link.sig, seconds(now));
}

export function loginLink(origin: string, key: string, accountId: string, now = new Date()): string {
  const expires = seconds(now) + LOGIN_LINK_SECONDS;
  const query = new URLSearchParams({ expires: String(expires), sig: signLink(key, ["dashboard", accountId], expires) });
  return `${origin}/sandbox/dashboard/${accountId}?${query}`;
}

export function checkLoginLink(key: string, accountId: string, search: URLSearchParams, now = new Date()): LinkCheck {
  return checkLink(key, ["dashboard", accountId], search.get("expires"), search.get("sig"), seconds(now));
}
