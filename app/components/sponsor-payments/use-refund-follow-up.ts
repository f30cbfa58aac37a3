import { useEffect } from "react";
import { useRevalidator } from "react-router";
import { useHydrated } from "#app/lib/use-hydrated";

/** While a refund waits for the provider's webhook, the page asks the server again this often. */
export const REFUND_POLL_MS = 1500;

/**
 * The sandbox (and Stripe) confirm a refund through the webhook, a moment
 * later: while any payment shown has a refund on its way, the page reloads its
 * data so its badge follows, without a reload (My Sponsorships, Sponsors Dashboard).
 */
export function useRefundFollowUp(waiting: boolean) {
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!hydrated || !waiting) return;
    const timer = setInterval(() => {
      if (document.visibilityState === "visible" && revalidator.state === "idle") void revalidator.revalidate();
    }, REFUND_POLL_MS);
    return () => clearInterval(timer);
  }, [hydrated, waiting, revalidator]);
}
