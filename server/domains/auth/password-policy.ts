import type { Config } from "#server/platform/config";
import type { PasswordPolicy } from "#isomorphic/password-rules";

/** The policy the configuration sets (SPEC §5): what GET /api/password-policy sends the sign-up form. */
export function passwordPolicyFrom(config: Config): PasswordPolicy {
  return {
    minLength: config.PASSWORD_MIN_LENGTH,
    maxLength: config.PASSWORD_MAX_LENGTH ?? null,
    requireLowercase: config.PASSWORD_REQUIRE_LOWERCASE,
    requireUppercase: config.PASSWORD_REQUIRE_UPPERCASE,
    requireNumeric: config.PASSWORD_REQUIRE_NUMERIC,
    requireNonAlphanumeric: config.PASSWORD_REQUIRE_NON_ALPHANUMERIC,
  };
}
