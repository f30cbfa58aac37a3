import { passwordPolicyFrom } from "#server/domains/auth/password-policy";
import type { Route } from "./+types/password-policy";

/** SPEC §5: the password policy the sign-up form reads. */
export function loader({ context }: Route.LoaderArgs) {
  return Response.json(passwordPolicyFrom(context.config), { headers: { "Cache-Control": "no-store" } });
}
