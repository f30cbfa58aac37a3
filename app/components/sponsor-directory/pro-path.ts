// Browser-safe copy of server/domains/pro/guards.ts's proUpsellPath (that
// module imports the session code, which must not reach the browser bundle).
// server/domains/sponsor-directory/pro-path.test.ts checks the two agree.

/** Where a non-Pro person is sent: the Pro page, which brings them back here once they have paid. */
export function proUpsellPath(returnTo: string): string {
  return `/app/pro?returnTo=${encodeURIComponent(returnTo)}`;
}
