import type { ApiContext } from "#tests/support/stripe-emulator/handler";
import type { EmulatorControl } from "#tests/support/stripe-emulator/control";
import type { EmulatorEvent, WebhookSender } from "#tests/support/stripe-emulator/events";
import type { RequestRecord } from "#tests/support/stripe-emulator/server";
import type { EmulatorStore } from "#tests/support/stripe-emulator/store";

/** The parts of a running emulator its HTTP handlers share. */
export type EmulatorRuntime = {
  store: EmulatorStore;
  context: ApiContext;
  control: EmulatorControl;
  webhooks: WebhookSender;
  requests: RequestRecord[];
  /** Records events and delivers them to the webhook URL, in order. */
  emit(events: EmulatorEvent[]): Promise<EmulatorEvent[]>;
  setRefundStatus(status: "succeeded" | "pending"): void;
};

export const CONTROL_NAMES = ["completeOnboarding", "setChargesEnabled", "completeCheckout", "settleDelayedPayment", "expireCheckout", "settleRefund", "openDispute", "submitDisputeEvidence", "closeDispute", "advanceSubscription", "setCardFailing", "updateCard", "makeFundsAvailable"] as const;
export type ControlName = (typeof CONTROL_NAMES)[number];
