import type Stripe from "stripe";

/** Everything the emulator knows, in memory: one map per resource, by id. */
export class EmulatorStore {
  readonly accounts = new Map<string, Stripe.Account>();
  readonly checkoutSessions = new Map<string, Stripe.Checkout.Session>();
  readonly paymentIntents = new Map<string, Stripe.PaymentIntent>();
  readonly charges = new Map<string, Stripe.Charge>();
  readonly balanceTransactions = new Map<string, Stripe.BalanceTransaction>();
  readonly refunds = new Map<string, Stripe.Refund>();
  readonly disputes = new Map<string, Stripe.Dispute>();
  /** Onboarding links handed out: the token in the URL → where to send the person back. */
  readonly onboardingLinks = new Map<string, { accountId: string; returnUrl: string; refreshUrl: string }>();

  /** Any stored object by its id, for `expand[]`. */
  find(id: string): { id: string } | undefined {
    for (const map of [this.accounts, this.checkoutSessions, this.paymentIntents, this.charges, this.balanceTransactions, this.refunds, this.disputes]) {
      const found = (map as Map<string, { id: string }>).get(id);
      if (found) return found;
    }
    return undefined;
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
    if (rest.length > 0 && next && typeof next === "object") this.expandPath(next as Record<string, unknown>, rest);
  }
}
