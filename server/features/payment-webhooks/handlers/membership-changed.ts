import type { Handler } from "#server/features/payment-webhooks/types";

// Scaffolding while the membership writer is built in its own branch: replaced wholesale.
export const membershipChanged: Handler<"membership.changed"> = {
  async handle(_tx, event, _prefetched, deps) {
    deps.logger?.warn({ subscriptionId: event.subscriptionId, cause: event.cause }, "membership.changed is not handled yet");
  },
};
