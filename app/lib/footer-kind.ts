/**
 * Which footer a page wears. The marketing footer (guides, support, company links) belongs to
 * the public site; inside the app, where a person is doing something (their dashboard, the
 * editor, a deal, the back office), a one-line footer keeps the legal links without the
 * advertising. The app's own pages that guests browse (SPEC §2.1: the sponsor directory, the
 * profiles, the opportunities and each opportunity) are public pages and keep the full footer.
 * Checkout and its result pages wear the creator's look and no site footer at all (their
 * routes' `siteChrome: false`, app/root.tsx).
 */
export type FooterKind = "marketing" | "minimal";

const APP_AREA = /^\/(app|edit|_app)(\/|$)/;

const GUEST_BROWSED: RegExp[] = [
  /^\/app\/sponsors(\/[^/]+)?$/,
  /^\/app\/profiles$/,
  /^\/app\/opportunities$/,
  // An opportunity's page, not the signed-in form addresses beside it.
  /^\/app\/opportunities\/(?!(new|edit|sponsor)$)[^/]+$/,
];

export function footerKind(pathname: string): FooterKind {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  if (!APP_AREA.test(path)) return "marketing";
  return GUEST_BROWSED.some((pattern) => pattern.test(path)) ? "marketing" : "minimal";
}
