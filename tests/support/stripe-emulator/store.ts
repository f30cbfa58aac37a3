import type Stripe from "stripe";

/** Everything the emulator knows, in memory: one map per resource, by id. */
export class EmulatorStore {
  readonly accounts = new Map<string, Stripe.Account>();
  readonly checkoutSessions = new Map<string, Stripe.Checkout.Session>();
  readonly paymentIntents = new Map<string, Stripe.PaymentIntent>();
  readonly charges = new Map<string, Stripe.Charge>();
  readonly balanceTransactions = new Map<string, Stripe.BalanceTransaction>();
  readonly refunds = new Map<string, Stripe.Refund>();
  readonly transfers = new Map<string, Stripe.Transfer>();
  readonly disputes = new Map<string, Stripe.Dispute>();
  readonly products = new Map<string, Stripe.Product>();
  readonly prices = new Map<string, Stripe.Price>();
  readonly customers = new Map<string, Stripe.Customer>();
  readonly subscriptions = new Map<string, Stripe.Subscription>();
  readonly invoices = new Map<string, Stripe.Invoice>();
  /** Each invoice's payments (its default payment intent), since API version 2025-03-31.basil no longer a field of the invoice. */
  readonly invoicePayments = new Map<string, Stripe.InvoicePayment>();
  readonly portalSessions = new Map<string, Stripe.BillingPortal.Session>();
  /** Onboarding links handed out: the token in the URL → where to send the person back. */
  readonly onboardingLinks = new Map<string, { accountId: string; returnUrl: string; refreshUrl: string }>();

  /** Any stored object by its id, for `expand[]`. */
  find(id: string): { id: string } | undefined {
    const maps = [this.accounts, this.checkoutSessions, this.paymentIntents, this.charges, this.balanceTransactions, this.refunds, this.transfers, this.disputes];
    for (const map of [...maps, this.products, this.prices, this.customers, this.subscriptions, this.invoices, this.invoicePayments]) {
      const found = (map as Map<string, { id: string }>).get(id);
      if (found) return found;
    }
    return undefined;
  }

  /** A list as Stripe answers it; `expand` paths start with `data.` and apply to each item. */
  list<T>(url: string, items: T[], expand: string[], limit: number) {
    const paths = expand.filter((path) => path.startsWith("data.")).map((path) => path.slice("data.".length));
    return { object: "list" as const, data: items.slice(0, limit).map((item) => this.expanded(item, paths)), has_more: items.length > limit, url };
  }

  /**
   * A deep copy of `object` with each dotted path of `expand` (e.g.
   * `latest_charge.balance_transaction`) turned from an id into the object.
   */
  expanded<T>(object: T, expand: string[]): T {
    const copy = structuredClone(object) as Record<string, unknown>;
    for (const path of expand) this.expandPath(copy, path.split("."));
    return copy as T;
  }

  private expandPath(target: Record<string, unknown>, [head, ...rest]: string[]) {
    if (!head) return;
    const value = target[head];
    if (typeof value === "string") {
      const found = this.find(value);
      if (!found) return;
      target[head] = structuredClone(found);
    }
    const next = target[head];
    if (rest.length === 0 || !next || typeof next !== "object") return;
    // Through a list's items, e.g. `items.data.price` on a subscription.
    if (Array.isArray(next)) {
      for (const item of next) if (item && typeof item === "object") this.expandPath({ item } as Record<string, unknown>, ["item", ...rest]);
    } else {
      this.expandPath(next as Record<string, unknown>, rest);
    }
  }
}
