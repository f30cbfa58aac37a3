import type Stripe from "stripe";
import type { AccountType, ConnectedAccountState } from "#server/providers/payments/port";

/**
 * Connect Express accounts: the creator's payout account at Stripe, onboarded
 * on Stripe's own pages (account links) and managed on Stripe's Express
 * dashboard (login links).
 */

export async function createExpressAccount(
  stripe: Stripe,
  input: { idempotencyKey: string; email: string; accountType: AccountType; uid: string },
): Promise<{ accountId: string }> {
  const account = await stripe.accounts.create(
    {
      type: "express",
      email: input.email,
      business_type: input.accountType,
      // Destination charges need both: the charge is taken on the platform, then transferred.
      capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
      metadata: { uid: input.uid },
    },
    { idempotencyKey: input.idempotencyKey },
  );
  return { accountId: account.id };
}

export async function createOnboardingLink(
  stripe: Stripe,
  input: { accountId: string; returnUrl: string; refreshUrl: string },
): Promise<{ url: string }> {
  // Single-use and short-lived at Stripe: made afresh each time the person is sent there.
  const link = await stripe.accountLinks.create({
    account: input.accountId,
    type: "account_onboarding",
    return_url: input.returnUrl,
    refresh_url: input.refreshUrl,
  });
  return { url: link.url };
}

export async function createExpressLoginLink(stripe: Stripe, accountId: string): Promise<{ url: string }> {
  const link = await stripe.accounts.createLoginLink(accountId);
  return { url: link.url };
}

export function accountState(account: Stripe.Account): ConnectedAccountState {
  return {
    accountId: account.id,
    chargesEnabled: account.charges_enabled === true,
    payoutsEnabled: account.payouts_enabled === true,
    detailsSubmitted: account.details_submitted === true,
  };
}

export async function readAccount(stripe: Stripe, accountId: string): Promise<ConnectedAccountState> {
  return accountState(await stripe.accounts.retrieve(accountId));
}
