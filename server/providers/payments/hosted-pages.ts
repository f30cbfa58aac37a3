/**
 * Whether a provider's page address (from the provider's API answer, never
 * from a request) may be followed by a redirect: on the sandbox, only its own
 * pages (`sandboxPath`) on our origin; on a real provider, only the origins it
 * hosts those pages on. Credentials in a URL are never followed. Answers the
 * address to redirect to, or null to show an error instead of leaving.
 */
export function allowedProviderUrl(
  url: string,
  rules: { provider: "stripe" | "sandbox"; publicOrigin: string; sandboxPath: RegExp; externalOrigins: readonly string[] },
): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.username || parsed.password) return null;
  if (rules.provider === "sandbox") {
    return parsed.origin === new URL(rules.publicOrigin).origin && rules.sandboxPath.test(parsed.pathname) ? parsed.href : null;
  }
  return rules.externalOrigins.includes(parsed.origin) ? parsed.href : null;
}
