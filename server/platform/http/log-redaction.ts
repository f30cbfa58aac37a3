/** Query parameters that carry a key to an account (emailed links): never in a log. */
const SECRET_PARAMS = ["token", "oobCode"];

/**
 * A request path fit for the log: the value of each secret parameter is
 * replaced, so an access log never holds a working reset or verification link.
 */
export function redactAccountTokens(path: string | undefined): string | undefined {
  if (!path || !path.includes("?")) return path;
  return path.replace(new RegExp(`([?&](?:${SECRET_PARAMS.join("|")})=)[^&#]*`, "gi"), "$1[redacted]");
}
