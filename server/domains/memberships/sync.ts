import type { Db } from "#server/platform/db/client";
import type { WebhookDeps } from "#server/domains/payments/notices/notice-deps";

/**
 * Placeholder until the one writer lands (its own file replaces this one): reads the provider's
 * truth about the subscription and leaves the row as it is.
 */
export async function refreshMembership(_db: Db, subscriptionId: string, deps: WebhookDeps): Promise<void> {
  await deps.provider.readMembershipState(subscriptionId);
}
