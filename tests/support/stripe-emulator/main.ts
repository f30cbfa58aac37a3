// The Stripe API emulator as its own process, for a suite that runs the built
// app against it (Playwright): `npx tsx tests/support/stripe-emulator/main.ts`.
// The app then runs with STRIPE_API_URL=<printed URL> and the same key and
// webhook secret; tests drive it through POST /__emulator/<control>.
import { startStripeEmulator } from "#tests/support/stripe-emulator";

const emulator = await startStripeEmulator({
  port: Number(process.env.STRIPE_EMULATOR_PORT ?? 12111),
  apiKey: process.env.STRIPE_SECRET_KEY,
  webhookSecret: process.env.STRIPE_WEBHOOK_SECRET,
  connectWebhookSecret: process.env.STRIPE_CONNECT_WEBHOOK_SECRET,
  webhookUrl: process.env.STRIPE_EMULATOR_WEBHOOK_URL,
  latencyMs: process.env.STRIPE_EMULATOR_LATENCY_MS ? Number(process.env.STRIPE_EMULATOR_LATENCY_MS) : undefined,
});
console.log(`stripe emulator: ${emulator.url} (health: ${emulator.url}/__emulator/health)`);

const stop = async () => {
  await emulator.close();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
