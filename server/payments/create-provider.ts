import type { Config } from "#server/config";
import type { PaymentProvider } from "./provider";

/**
 * The configured provider (PAYMENT_PROVIDER: stripe or sandbox). The seam the
 * real providers plug into; until they are merged, a provider that says so
 * clearly when it is USED — the server still starts, and pages without
 * payments work. Tests pass their own (`override`).
 */
export function createPaymentProvider(config: Pick<Config, "PAYMENT_PROVIDER">, options: { override?: PaymentProvider } = {}): PaymentProvider {
  if (options.override) return options.override;
  return unconfiguredProvider(config.PAYMENT_PROVIDER);
}

export class NoPaymentProviderError extends Error {
  constructor(name: string) {
    super(`No payment provider is configured: PAYMENT_PROVIDER=${name} is not available in this build.`);
    this.name = "NoPaymentProviderError";
  }
}

function unconfiguredProvider(name: PaymentProvider["name"]): PaymentProvider {
  const fail = (): never => {
    throw new NoPaymentProviderError(name);
  };
  return {
    name,
    displayName: name === "stripe" ? "Stripe" : "Sandbox",
    createConnectedAccount: async () => fail(),
    createOnboardingLink: async () => fail(),
    createLoginLink: async () => fail(),
    readAccount: async () => fail(),
    createSponsorCheckout: async () => fail(),
    paymentDetails: async () => fail(),
    refundPayment: async () => fail(),
    parseWebhook: () => fail(),
  };
}
