import { Link } from "react-router";
import type { DealSide } from "#server/platform/db/schema";

/**
 * The deal page's "Paperwork", once the deal is booked: the sponsor's invoice for both sides, and
 * the creator's statement of the deal's money for the creator. Plain links, so they work without
 * JavaScript; the PDFs are downloads.
 */
export function DealPaperwork({ dealId, side, invoiceNumber }: { dealId: string; side: DealSide; invoiceNumber: string }) {
  const base = `/app/deals/${dealId}`;
  return (
    <section aria-labelledby="paperwork-heading" className="mt-8 rounded-2xl border border-primary/15 p-6">
      <h2 id="paperwork-heading" className="text-xl font-bold">
        Paperwork
      </h2>
      <p className="mt-1 text-sm text-muted">
        {side === "sponsor"
          ? "Your invoice for this deal, with both parties' billing details."
          : "The invoice the sponsor received, and your statement of what was paid, held and released."}{" "}
        Names and tax ids come from each side's <Link to="/app/account/billing">billing details</Link> when the deal was booked.
      </p>
      <ul className="mt-4 space-y-2">
        <li>
          <Link to={`${base}/invoice`}>Invoice {invoiceNumber}</Link> ·{" "}
          <a href={`${base}/invoice.pdf`} download aria-label={`Download invoice ${invoiceNumber} as PDF`}>
            PDF
          </a>
        </li>
        {side === "creator" ? (
          <li>
            <Link to={`${base}/statement`}>Your statement</Link> ·{" "}
            <a href={`${base}/statement.pdf`} download aria-label="Download your statement as PDF">
              PDF
            </a>
          </li>
        ) : null}
      </ul>
    </section>
  );
}
