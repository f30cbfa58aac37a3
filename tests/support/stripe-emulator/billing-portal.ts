import type http from "node:http";
import { newEvent } from "#tests/support/stripe-emulator/events";
import { setCancelAtPeriodEnd } from "#tests/support/stripe-emulator/billing-objects";
import { updateCard } from "#tests/support/stripe-emulator/billing-payments";
import { billingPortalPage, cardUpdatePage } from "#tests/support/stripe-emulator/pages";
import { readBody, redirect, sendHtml } from "#tests/support/stripe-emulator/respond";
import type { EmulatorRuntime } from "#tests/support/stripe-emulator/runtime";

/**
 * Stripe's billing portal, as far as a browser test needs it: the customer's
 * subscriptions, "Cancel plan" (cancel at period end, as the portal's default
 * configuration does, sending `customer.subscription.updated`), "Update card"
 * (a card number: 4000 0000 0000 0341 is declined from then on, any other pays
 * a past-due invoice at once), and the link back to return_url.
 * GET /billing/portal/<session>, POST …/cancel/<subscription>, POST …/card.
 * A session made with `flow_data[type]=payment_method_update` opens on the card
 * form alone and, once a card is given, follows its `after_completion` redirect.
 */
export async function billingPortal(runtime: EmulatorRuntime, req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<boolean> {
  const { store, emit } = runtime;
  const [, , , token, action, subscriptionId] = url.pathname.split("/");
  const session = token ? store.portalSessions.get(token) : undefined;
  if (!session) return false;
  const mine = [...store.subscriptions.values()].filter((subscription) => subscription.customer === session.customer);
  if (req.method === "POST" && action === "cancel" && subscriptionId) {
    const subscription = mine.find((candidate) => candidate.id === subscriptionId);
    if (!subscription || subscription.status === "canceled") return false;
    setCancelAtPeriodEnd(subscription, true);
    await emit([newEvent("customer.subscription.updated", subscription)]);
    return (redirect(res, `/billing/portal/${session.id}`), true);
  }
  if (req.method === "POST" && action === "card") {
    const card = new URLSearchParams(await readBody(req)).get("card") ?? "";
    if (!/^[\d\s]{12,23}$/.test(card)) return (sendHtml(res, cardUpdatePage({ token: session.id, error: "Your card number is incomplete." }), 400), true);
    await emit(updateCard(runtime.context, session.customer, card));
    const after = session.flow?.after_completion;
    return (redirect(res, after?.type === "redirect" && after.redirect ? after.redirect.return_url : `/billing/portal/${session.id}`), true);
  }
  if (req.method !== "GET" || action) return false;
  if (session.flow?.type === "payment_method_update") return (sendHtml(res, cardUpdatePage({ token: session.id, error: null })), true);
  const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
  const subscriptions = mine.map((subscription) => {
    const price = subscription.items.data[0]!.price;
    const product = typeof price.product === "string" ? store.products.get(price.product)?.name : undefined;
    return {
      id: subscription.id,
      product: product ?? price.id,
      status: subscription.status,
      periodEnd: day(Math.max(...subscription.items.data.map((item) => item.current_period_end))),
      cancelAtPeriodEnd: subscription.cancel_at_period_end,
    };
  });
  return (sendHtml(res, billingPortalPage({ token: session.id, subscriptions, returnUrl: session.return_url })), true);
}
