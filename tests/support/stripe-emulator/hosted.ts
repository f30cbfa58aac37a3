import type http from "node:http";
import { billingPortal } from "#tests/support/stripe-emulator/billing-portal";
import { checkoutPage, expressDashboardPage, onboardingPage } from "#tests/support/stripe-emulator/pages";
import { readBody, redirect, sendHtml } from "#tests/support/stripe-emulator/respond";
import type { EmulatorRuntime } from "#tests/support/stripe-emulator/runtime";

/**
 * Stripe's hosted pages, as far as a browser test needs them: Checkout (pay,
 * or follow the cancel link), Connect onboarding (submit, back to
 * return_url), the Express dashboard a login link opens, and the billing
 * portal (cancel a subscription at period end, back to return_url).
 */
export async function hostedPages(runtime: EmulatorRuntime, req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<boolean> {
  const { store, context, control, emit } = runtime;
  const [, kind, sub, id] = url.pathname.split("/");
  if (kind === "checkout" && sub === "pay" && id) {
    const session = store.checkoutSessions.get(id);
    const payable = context.checkoutPayments.has(id) || context.checkoutSubscriptions.has(id);
    if (!session || !payable || session.status !== "open") return false;
    if (req.method === "POST") {
      const email = new URLSearchParams(await readBody(req)).get("email") || undefined;
      await emit(control.completeCheckout(id, { email }));
      return (redirect(res, session.success_url!.replace("{CHECKOUT_SESSION_ID}", id)), true);
    }
    const email = session.customer_email ?? (typeof session.customer === "string" ? (store.customers.get(session.customer)?.email ?? null) : null);
    return (sendHtml(res, checkoutPage({ id, amount: session.amount_total ?? 0, currency: session.currency ?? "usd", email, cancelUrl: session.cancel_url, recurring: session.mode === "subscription" })), true);
  }
  if (kind === "billing" && sub === "portal" && id) return billingPortal(runtime, req, res, url);
  if (kind === "connect" && sub === "onboarding" && id) {
    const link = store.onboardingLinks.get(id);
    if (!link) return false;
    if (req.method === "POST") {
      store.onboardingLinks.delete(id);
      await emit(control.completeOnboarding(link.accountId));
      return (redirect(res, link.returnUrl), true);
    }
    return (sendHtml(res, onboardingPage(id, link.accountId)), true);
  }
  if (kind === "express" && sub) {
    const account = store.accounts.get(sub);
    if (!account) return false;
    return (sendHtml(res, expressDashboardPage({ accountId: account.id, chargesEnabled: account.charges_enabled, payoutsEnabled: account.payouts_enabled })), true);
  }
  return false;
}
