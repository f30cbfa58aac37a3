import type { AppLoadContext } from "react-router";
import type { IdentityDeps } from "../../server/auth/flows";

/** The identity flows' dependencies, straight from the request context. */
export function identityDeps(context: AppLoadContext): IdentityDeps {
  return { db: context.db, auth: context.auth, captcha: context.captcha, config: context.config };
}

export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}
