/**
 * A Stripe API emulator on loopback for tests (no test reaches the internet).
 *
 *   const emulator = await startStripeEmulator({ webhookUrl: "http://127.0.0.1:3100/api/payments/webhooks/stripe" });
 *   const config = loadConfig({ STRIPE_SECRET_KEY: emulator.apiKey, STRIPE_WEBHOOK_SECRET: emulator.webhookSecret, STRIPE_API_URL: emulator.url });
 *   // … the app creates an account and a checkout through the real SDK …
 *   await emulator.completeOnboarding(accountId);       // account.updated, signed and posted
 *   await emulator.completeCheckout(checkoutId);        // payment intent, charge, fee; checkout.session.completed
 *   expect(emulator.calls("POST /v1/refunds")).toBe(1);
 *   // Pro (Stripe Billing): a subscription checkout completes into a subscription with its first invoice paid;
 *   await emulator.advanceSubscription(subscriptionId);  // period end: renewal paid, or past_due after
 *   await emulator.setCardFailing(customerId, true);     // … a declined card, or ended if cancel_at_period_end;
 *                                                        // past due, each advance is a retry, the 4th declined ends it
 *   await emulator.updateCard(customerId, "4242424242424242"); // the portal's card update: pays what is past due
 *   // Memberships: a subscription checkout with price_data and subscription_data[transfer_data] bills every
 *   // invoice as a destination charge (payment intent, charge, application fee), listed as the invoice's payments.
 *
 * Without a webhook URL, `emulator.sign(event)` gives the body and Stripe-Signature header to post.
 * Another process drives it over HTTP: `npx tsx tests/support/stripe-emulator/main.ts`, then
 * POST /__emulator/<control> with {"args": [...]}.
 */
export { startStripeEmulator, type EmulatorOptions, type RequestRecord, type StripeEmulator } from "#tests/support/stripe-emulator/server";
export type { EmulatorEvent, SignedDelivery, Delivery } from "#tests/support/stripe-emulator/events";
export { processingFee } from "#tests/support/stripe-emulator/objects";
