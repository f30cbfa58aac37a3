/**
 * The pages a payment provider hosts that we send a browser to: its checkout
 * (a sponsor's payment) and its billing pages (Pro's checkout and portal).
 * Each provider answers for its own (`PaymentProvider.hostedPages`), so no
 * domain knows where Stripe or the sandbox keep them.
 */
export type HostedPage = "checkout" | "billing";

export type HostedPages = {
  /**
   * The address to redirect to, or null when `url` (from the provider's API
   * answer, never from a request) is not one of its pages of that kind: the
   * page then shows an error instead of leaving. Credentials in a URL are
   * never followed.
   */
  follow(url: string, page: HostedPage): string | null;
  /** The origins off our own those pages live on: the CSP's `form-action` lists them. */
  readonly externalOrigins: readonly string[];
};

function parsed(url: string): URL | null {
  try {
    const address = new URL(url);
    return address.username || address.password ? null : address;
  } catch {
    return null;
  }
}

/** Pages served by our own process (the sandbox): on our origin, at the paths given per kind. */
export function pagesOnOwnOrigin(publicOrigin: string, paths: Record<HostedPage, RegExp>): HostedPages {
  const origin = new URL(publicOrigin).origin;
  return {
    follow(url, page) {
      const address = parsed(url);
      return address && address.origin === origin && paths[page].test(address.pathname) ? address.href : null;
    },
    externalOrigins: [],
  };
}

/** Pages on the provider's own sites, any path, at the origins given per kind. */
export function pagesOffSite(origins: Record<HostedPage, readonly string[]>): HostedPages {
  return {
    follow(url, page) {
      const address = parsed(url);
      return address && origins[page].includes(address.origin) ? address.href : null;
    },
    externalOrigins: [...new Set([...origins.checkout, ...origins.billing])],
  };
}
