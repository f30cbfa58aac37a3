import type { Config } from "#server/platform/config";
import type { MigrationChain } from "#server/platform/db/migrate";
import type { PaymentProvider } from "#server/providers/payments/port";
import { SANDBOX_MIGRATIONS } from "#server/providers/payments/sandbox/migrations";
import { sandboxDemoPayoutAccount } from "#server/providers/payments/sandbox/demo-account";
import type { Db } from "#server/platform/db/client";
import { createStripeClient } from "#server/providers/payments/stripe/client";
import { createStripeProvider } from "#server/providers/payments/stripe/provider";

type PaymentConfig = Pick<
  Config,
  "PAYMENT_PROVIDER" | "STRIPE_SECRET_KEY" | "STRIPE_WEBHOOK_SECRET" | "STRIPE_CONNECT_WEBHOOK_SECRET" | "STRIPE_API_URL"
>;

export type PaymentProviderDeps = {
  /**
   * Builds the built-in sandbox provider (server/providers/payments/sandbox/), which
   * needs the app's database, origin and session secret: the caller that owns
   * those passes it in. Called only when the sandbox is the chosen provider.
   */
  sandbox: () => PaymentProvider;
  now?: () => number;
};

/**
 * The one provider the app runs with, chosen once at start from the validated
 * configuration (server/platform/config.ts already refused a production start with no
 * Stripe keys unless PAYMENT_PROVIDER=sandbox was chosen explicitly).
 */
export function createPaymentProvider(config: PaymentConfig, deps: PaymentProviderDeps): PaymentProvider {
  switch (config.PAYMENT_PROVIDER) {
    case "sandbox":
      return deps.sandbox();
    case "stripe": {
      if (!config.STRIPE_SECRET_KEY || !config.STRIPE_WEBHOOK_SECRET) {
        throw new Error("PAYMENT_PROVIDER is stripe but STRIPE_SECRET_KEY or STRIPE_WEBHOOK_SECRET is not set");
      }
      const stripe = createStripeClient({ secretKey: config.STRIPE_SECRET_KEY, apiUrl: config.STRIPE_API_URL });
      const webhookSecrets = [config.STRIPE_WEBHOOK_SECRET, config.STRIPE_CONNECT_WEBHOOK_SECRET].filter((secret): secret is string => Boolean(secret));
      return createStripeProvider({ stripe, webhookSecrets, apiUrl: config.STRIPE_API_URL, now: deps.now });
    }
  }
}

/** The migrations the configured provider's own tables need, after the product's: the sandbox keeps its records in our database, Stripe keeps none here. */
export function providerMigrations(config: Pick<Config, "PAYMENT_PROVIDER">): readonly MigrationChain[] {
  return config.PAYMENT_PROVIDER === "sandbox" ? [SANDBOX_MIGRATIONS] : [];
}

/**
 * Makes a complete payout account for a demo person at the configured provider
 * and answers its id. Handed to the seed, which reaches no provider by itself.
 */
export type DemoPayoutAccount = (db: Db, person: { uid: string; email: string; legalName: string }, now?: Date) => Promise<string>;

/**
 * How the seed gives the demo creator a complete payout account: at the
 * sandbox, which keeps its accounts in our database. With Stripe there is no
 * honest way to (a real account needs a real person), so the demo page then
 * shows the setup checklist like anyone's.
 */
export function demoPayoutAccount(config: Pick<Config, "PAYMENT_PROVIDER">): DemoPayoutAccount | undefined {
  return config.PAYMENT_PROVIDER === "sandbox" ? sandboxDemoPayoutAccount : undefined;
}
