import type http from "node:http";
import { checkoutPage, expressDashboardPage, onboardingPage } from "#tests/support/stripe-emulator/pages";
import { readBody, redirect, sendHtml } from "#tests/support/stripe-emulator/respond";
import type { EmulatorRuntime } from "#tests/support/stripe-emulator/runtime";

/**
 * Stripe's hosted pages, as far as a browser test needs them: Checkout (pay,
 * or follow the cancel link), Connect onboarding (submit, back to
 * return_url) and the Express dashboard a login link opens.
 */
export async function hostedPages(runtime: EmulatorRuntime, req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<boolean> {
  const { store, context, control, emit } = runtime;
  const [, kind, sub, id] = url.pathname.split("/");
  if (kind === "checkout" && sub === "pay" && id) {
    const session = store.checkoutSessions.get(id);
    const payment = context.checkoutPayments.get(id);
    if (!session || !payment || session.status !== "open") return false;
    if (req.method === "POST") {
      const email = new URLSearchParams(await readBody(req)).get("email") || undefined;
      await emit(control.completeCheckout(id, { email }));
      return (redirect(res, session.success_url!.replace("{CHECKOUT_SESSION_ID}", id)), true);
    }
    return (sendHtml(res, checkoutPage({ id, amount: payment.amount, currency: payment.currency, email: session.customer_email, cancelUrl: session.cancel_url })), true);
  }
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
