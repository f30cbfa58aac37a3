/** The emulator's stand-ins for Stripe's hosted pages (Checkout, onboarding, Express dashboard): plain HTML forms. */

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)} · Stripe emulator (test mode)</title></head>
<body><p><strong>Stripe API emulator — test mode</strong></p><h1>${escape(title)}</h1>${body}</body></html>`;
}

export function checkoutPage(input: { id: string; amount: number; currency: string; email: string | null; cancelUrl: string | null }): string {
  const amount = `${(input.amount / 100).toFixed(2)} ${input.currency.toUpperCase()}`;
  return page(
    `Pay ${amount}`,
    `<form method="post" action="/checkout/pay/${escape(input.id)}">
<label>Email <input name="email" type="email" value="${escape(input.email ?? "")}" required></label>
<button type="submit">Pay ${escape(amount)}</button></form>
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
