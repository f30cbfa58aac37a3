import { useCallback, useEffect, useRef, useState } from "react";
import { REFUNDED_MS } from "./RefundButton";
import type { PaymentCardView } from "./SponsorPaymentCard";

/**
 * My Sponsorships under a status filter: once a refund is
 * taken, revalidation may drop the card from a "Completed" list at once (the
 * sandbox's webhook is that fast), and 'Refunded' would vanish with it. A
 * refunded card is held for SPEC §9's 4 seconds where it was, as the
 * unfiltered list shows it, then the list is the server's again.
 */
export function useCardsHeldAfterRefund(cards: PaymentCardView[]) {
  const [held, setHeld] = useState<Record<string, PaymentCardView>>({});
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());

  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach(clearTimeout);
  }, []);

  const hold = useCallback((card: PaymentCardView, status: "pending" | "succeeded") => {
    const after = { ...card, status: status === "succeeded" ? ("refunded" as const) : card.status, refundPending: status === "pending" };
    setHeld((current) => ({ ...current, [card.id]: after }));
    const timer = setTimeout(() => {
      timers.current.delete(timer);
      setHeld(({ [card.id]: _released, ...rest }) => rest);
    }, REFUNDED_MS);
    timers.current.add(timer);
  }, []);

  const shown = mergeHeld(cards, Object.values(held));
  return { shown, hold };
}

/** The server's cards plus held ones it no longer lists, in its order: newest first, then by id. */
export function mergeHeld(cards: PaymentCardView[], held: PaymentCardView[]): PaymentCardView[] {
  const listed = new Set(cards.map((card) => card.id));
  const missing = held.filter((card) => !listed.has(card.id));
  if (missing.length === 0) return cards;
  return [...cards, ...missing].sort((a, b) => (a.created === b.created ? (a.id < b.id ? 1 : -1) : a.created < b.created ? 1 : -1));
}
