import type { SponsorSessionStatus } from "#server/platform/db/schema";

const LOOKS: Record<SponsorSessionStatus | "refund-pending", { label: string; className: string }> = {
  completed: { label: "Completed", className: "bg-green-100 text-green-900" },
  pending: { label: "Pending", className: "bg-amber-100 text-amber-900" },
  refunded: { label: "Refunded", className: "bg-slate-200 text-slate-900" },
  failed: { label: "Failed", className: "bg-red-100 text-red-900" },
  expired: { label: "Expired", className: "bg-slate-100 text-slate-800" },
  disputed: { label: "Disputed", className: "bg-red-100 text-red-900" },
  "refund-pending": { label: "Refund pending", className: "bg-sky-100 text-sky-900" },
};

/** A session's status in words; a refund the provider has not confirmed yet reads "Refund pending". */
export function StatusBadge({ status, refundPending = false }: { status: SponsorSessionStatus; refundPending?: boolean }) {
  const look = LOOKS[refundPending && status === "completed" ? "refund-pending" : status];
  return (
    <span className={`inline-block whitespace-nowrap rounded-full px-3 py-0.5 text-xs font-semibold ${look.className}`}>
      <span className="sr-only">Status: </span>
      {look.label}
    </span>
  );
}
