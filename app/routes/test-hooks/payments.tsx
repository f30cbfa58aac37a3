import { eq } from "drizzle-orm";
import { data } from "react-router";
import { getSessionUser } from "#server/auth/session";
import { connectedAccounts, profiles } from "#server/db/schema";
import { notificationDepsOf } from "#server/notifications/deps";
import { getOrCreateConnectedAccount } from "#server/payments/connect";
import { sandboxFor } from "#server/payments/sandbox/runtime";
import type { Route } from "./+types/payments";

/**
 * End-to-end helper (ENABLE_TEST_ROUTES only, behind the loopback + secret
 * guard), for the signed-in user:
 * - `?ready=true`: a complete payout account, made the way a person makes one
 *   (Connect → the sandbox's onboarding → its `account.updated` event through
 *   our webhook), so specs of other screens start from a creator who takes
 *   payments. Answers once the profile has payments enabled.
 * - `?enabled=true|false`: only flips the profile's payments_enabled (bio page
 *   sponsorship options), with no payout account.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (!context.config.ENABLE_TEST_ROUTES) throw data(null, { status: 404 });
  const user = await getSessionUser(request, context);
  if (!user) throw data("Sign in first", { status: 401 });
  const params = new URL(request.url).searchParams;

  if (params.get("ready") === "true") {
    if (context.payments.name !== "sandbox") throw data("Only with the sandbox provider", { status: 409 });
    const sandbox = sandboxFor(context);
    const connected = await getOrCreateConnectedAccount(context.db, context.payments, {
      uid: user.id,
      email: user.email,
      accountType: "individual",
      origin: context.config.PUBLIC_ORIGIN,
    }, notificationDepsOf(context));
    if (connected.kind === "ERROR") throw data(connected.message, { status: 502 });
    const [account] = await context.db.select().from(connectedAccounts).where(eq(connectedAccounts.uid, user.id));
    if (connected.outcome !== "EXISTING_COMPLETE" && account?.providerAccountId) {
      await sandbox.completeOnboarding(account.providerAccountId, { legalName: user.name || "E2E Creator", country: "US", bankAccount: "000123456789" });
    }
    // The account.updated event goes through the webhook endpoint like any other.
    for (let attempt = 0; attempt < 50; attempt++) {
      await sandbox.deliverPendingSandboxEvents();
      const [profile] = await context.db.select({ enabled: profiles.paymentsEnabled }).from(profiles).where(eq(profiles.uid, user.id));
      if (profile?.enabled) return Response.json({ uid: user.id, accountId: account?.providerAccountId, paymentsEnabled: true });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw data("The account did not become complete", { status: 504 });
  }

  const paymentsEnabled = params.get("enabled") !== "false";
  await context.db
    .insert(profiles)
    .values({ uid: user.id, paymentsEnabled })
    .onConflictDoUpdate({ target: profiles.uid, set: { paymentsEnabled } });
  return Response.json({ uid: user.id, paymentsEnabled });
}
