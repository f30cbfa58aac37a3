import type { Db } from "#server/platform/db/client";
import type { WebhookDeps } from "#server/domains/payments/notices/notice-deps";

/**
 * Stand-in until the membership writer's branch lands (its file replaces this one): reads the
 * provider's truth as the writer will, and writes nothing, so callers already call it right
 * after a provider call and the screen converges once the writer is in.
 */
export async function refreshMembership(_db: Db, subscriptionId: string, deps: WebhookDeps): Promise<void> {
  await deps.provider.readMembershipState(subscriptionId);
}
