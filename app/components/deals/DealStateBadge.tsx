import type { DealState } from "#server/platform/db/schema";

const LABELS: Record<DealState, string> = {
  proposed: "Negotiating",
  agreed: "Agreed",
  funded: "Booked",
  disputed: "Disputed",
  completed: "Completed",
  cancelled: "Cancelled",
  declined: "Declined",
  withdrawn: "Withdrawn",
};

const TONES: Record<DealState, string> = {
  proposed: "bg-secondary/60 text-ink",
  agreed: "bg-emerald-100 text-emerald-900",
  funded: "bg-emerald-600 text-white",
  disputed: "bg-amber-100 text-amber-900",
  completed: "bg-emerald-100 text-emerald-900",
  cancelled: "bg-ink/10 text-ink",
  declined: "bg-ink/10 text-ink",
  withdrawn: "bg-ink/10 text-ink",
};

/** A deal's state in words, and "Your turn" when its terms wait on the reader. */
export function DealStateBadge({ state, waitingOnYou }: { state: DealState; waitingOnYou: boolean }) {
  return (
    <span className="flex flex-wrap gap-2">
      <span className={`rounded-full px-3 py-1 text-sm font-semibold ${TONES[state]}`}>{LABELS[state]}</span>
      {waitingOnYou ? <span className="rounded-full bg-amber-100 px-3 py-1 text-sm font-semibold text-amber-900">Your turn</span> : null}
    </span>
  );
}
