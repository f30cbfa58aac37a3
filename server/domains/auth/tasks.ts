import type { TaskQueue } from "#server/platform/jobs/task-queue";
import type { Auth } from "./auth";

/** A password reset asked for by a request: looked up, and its link mailed, after the answer went. */
export const PASSWORD_RESET_TASK = "auth.password-reset";

/**
 * The identity flows' queued work (server/domains/auth/flows.ts queues it). A reset that runs twice
 * (a retry, a process that died after the mail was queued) mails a second link, which ends with
 * the first one used: harmless.
 */
export function handleAuthTasks(tasks: Pick<TaskQueue, "handle">, auth: Auth): void {
  tasks.handle(PASSWORD_RESET_TASK, async ({ payload }) => {
    const email = payload.email;
    if (typeof email !== "string") throw new Error("a password reset task carries an email");
    await auth.api.requestPasswordReset({ body: { email, redirectTo: "/reset-password" } });
  });
}
