/**
 * SPEC §2.2: every route here needs a signed-in user. Routes that exist
 * guard themselves in their loaders; for the ones later issues add, the
 * catch-all route applies this list so that a guest is still sent to sign in.
 */
export const SIGNED_IN_PATTERNS: RegExp[] = [
  /^\/app$/,
  /^\/app\/verify$/,
  /^\/app\/opportunities\/(new|edit|sponsor)$/,
  /^\/app\/account(\/.*)?$/,
  /^\/app\/payments\/setup(\/(return|refresh))?$/,
  /^\/app\/notifications$/,
  /^\/app\/pro$/,
  /^\/app\/admin(\/.*)?$/,
  /^\/app\/post\/opportunity$/,
  /^\/app\/bizbio\/new$/,
  /^\/app\/my-sponsors\/all$/,
  /^\/edit\/[^/]+$/,
  /^\/_app(\/.*)?$/,
];

export function isSignedInOnly(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return SIGNED_IN_PATTERNS.some((pattern) => pattern.test(path));
}

/** SPEC §2.2 legacy names and their destinations. */
export const LEGACY_REDIRECTS: Record<string, string> = {
  "/app/post/opportunity": "/app/opportunities/new",
  "/app/bizbio/new": "/app/account/bizbio/new",
  "/app/my-sponsors/all": "/app/account/sponsors",
};
