import { redirect, type AppLoadContext } from "react-router";
import type { UserType } from "#server/platform/db/schema";
import { startGoogleSignIn, type IdentityDeps } from "#server/domains/auth/flows";
import type { TaskSink } from "#server/platform/jobs/task-queue";
import { cookieHeaders } from "#server/domains/auth/session";

/** The identity flows' dependencies, straight from the request context. */
export function identityDeps(context: AppLoadContext): IdentityDeps & { tasks: TaskSink } {
  return { db: context.db, auth: context.auth, captcha: context.captcha, config: context.config, logger: context.logger, tasks: context.tasks };
}

/** Off to Google, carrying better-auth's state cookie. */
export async function redirectToGoogle(context: AppLoadContext, request: Request, redirectTo: string, type: UserType | null): Promise<never> {
  const started = await startGoogleSignIn(identityDeps(context), { redirectTo, type, headers: request.headers });
  throw redirect(started.url, { headers: cookieHeaders(started.headers) });
}

export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}
