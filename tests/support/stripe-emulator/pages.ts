/** The emulator's stand-ins for Stripe's hosted pages (Checkout, onboarding, Express dashboard): plain HTML forms. */

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)} · Stripe emulator (test mode)</title></head>
<body><p><strong>Stripe API emulator — test mode</strong></p><h1>${escape(title)}</h1>${body}</body></html>`;
}

export function checkoutPage(input: { id: string; amount: number; currency: string; email: string | null; cancelUrl: string | null; recurring?: boolean }): string {
  const amount = `${(input.amount / 100).toFixed(2)} ${input.currency.toUpperCase()}`;
  const action = input.recurring ? "Subscribe" : "Pay";
  return page(
    `${action} ${amount}`,
    `<form method="post" action="/checkout/pay/${escape(input.id)}">
<label>Email <input name="email" type="email" value="${escape(input.email ?? "")}" required></label>
<button type="submit">${action} ${escape(amount)}</button></form>
${input.cancelUrl ? `<p><a href="${escape(input.cancelUrl)}">Cancel and go back</a></p>` : ""}`,
  );
}

export function onboardingPage(token: string, accountId: string): string {
  return page(
    "Set up payouts",
    `<p>Account ${escape(accountId)}</p><form method="post" action="/connect/onboarding/${escape(token)}"><button type="submit">Agree and submit</button></form>`,
  );
}

export function expressDashboardPage(input: { accountId: string; chargesEnabled: boolean; payoutsEnabled: boolean }): string {
  return page(
    "Express dashboard",
    `<p>Account ${escape(input.accountId)}</p><ul><li>Charges: ${input.chargesEnabled ? "enabled" : "disabled"}</li><li>Payouts: ${input.payoutsEnabled ? "enabled" : "disabled"}</li></ul>`,
  );
}

export function billingPortalPage(input: {
  token: string;
  subscriptions: { id: string; product: string; status: string; periodEnd: string; cancelAtPeriodEnd: boolean }[];
  returnUrl: string | null;
}): string {
  const rows = input.subscriptions.map((subscription) => {
    const state = subscription.cancelAtPeriodEnd ? `cancels on ${subscription.periodEnd}` : `${subscription.status}, renews on ${subscription.periodEnd}`;
    const cancel =
      subscription.status !== "canceled" && !subscription.cancelAtPeriodEnd
        ? `<form method="post" action="/billing/portal/${escape(input.token)}/cancel/${escape(subscription.id)}"><button type="submit">Cancel plan</button></form>`
        : "";
    return `<li>${escape(subscription.product)}: ${escape(state)}${cancel}</li>`;
  });
  const card = `<form method="post" action="/billing/portal/${escape(input.token)}/card"><label>Card number <input name="card" inputmode="numeric" required></label><button type="submit">Update card</button></form>`;
  return page(
    "Manage billing",
    `${rows.length ? `<ul>${rows.join("")}</ul>` : "<p>No subscriptions.</p>"}${card}${input.returnUrl ? `<p><a href="${escape(input.returnUrl)}">Return</a></p>` : ""}`,
  );
}

/** The portal's card update (flow `payment_method_update`): one card number; 4000 0000 0000 0341 is accepted here and declined on the next charge. */
export function cardUpdatePage(input: { token: string; error: string | null }): string {
  return page(
    "Update payment method",
    `${input.error ? `<p role="alert">${escape(input.error)}</p>` : ""}<form method="post" action="/billing/portal/${escape(input.token)}/card">
<label>Card number <input name="card" inputmode="numeric" autocomplete="cc-number" required></label>
<button type="submit">Update card</button></form>`,
  );
}
