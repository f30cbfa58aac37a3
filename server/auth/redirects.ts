/**
 * Where to go after signing in: only same-site paths, never another host
 * (no open redirect). Anything doubtful falls back to the dashboard.
 */
export function safeRedirectPath(value: string | null | undefined, fallback = "/app"): string {
  if (!value || value.length > 2048) return fallback;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  // Control characters or backslashes: browsers "fix" these into other hosts.
  if ([...value].some((ch) => ch.charCodeAt(0) < 0x20 || ch === "\\")) return fallback;
  try {
    const url = new URL(value, "http://same.invalid");
    if (url.host !== "same.invalid") return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}

export function signInPath(redirectTo: string): string {
  return `/signin?redirectTo=${encodeURIComponent(redirectTo)}`;
}
