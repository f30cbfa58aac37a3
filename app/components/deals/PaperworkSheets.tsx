import { Link } from "react-router";
import type { InvoiceDocument, PartyBlock, StatementDocument } from "#server/domains/deals/paperwork-documents";
import { secondaryButton } from "#page-kit/forms";
import { useHydrated } from "#app/lib/use-hydrated";

/**
 * A deal's invoice and statement as printable pages: a sheet of paper on screen, the sheet alone
 * on paper (the bar above it is not printed). The words are the PDF's own (documents.ts).
 */

/** "Print" needs the browser's print dialog, so it appears once JavaScript runs; the PDF link works without. */
function PrintButton() {
  if (!useHydrated()) return null;
  return (
    <button type="button" className={secondaryButton} onClick={() => window.print()}>
      Print
    </button>
  );
}

export function PaperworkToolbar({ dealId, pdfHref }: { dealId: string; pdfHref: string }) {
  return (
    <nav aria-label="Paperwork" className="border-b border-ink/10 bg-white print:hidden">
      <div className="mx-auto flex max-w-3xl flex-wrap items-center justify-between gap-3 px-4 py-3">
        <Link to={`/app/deals/${dealId}`} className="font-semibold">
          ← Back to the deal
        </Link>
        <div className="flex flex-wrap gap-3">
          <PrintButton />
          <a href={pdfHref} download className={`${secondaryButton} no-underline`}>
            Download PDF
          </a>
        </div>
      </div>
    </nav>
  );
}

function Sheet({ labelledBy, children }: { labelledBy: string; children: React.ReactNode }) {
  return (
    <article
      aria-labelledby={labelledBy}
      className="mx-auto my-6 max-w-3xl break-words rounded-lg border border-ink/10 bg-white p-5 shadow-sm sm:my-10 sm:p-10 print:my-0 print:max-w-none print:rounded-none print:border-0 print:p-0 print:shadow-none"
    >
      {children}
    </article>
  );
}

function Party({ block }: { block: PartyBlock }) {
  return (
    <div>
      <h2 className="text-xs font-semibold uppercase tracking-wide text-muted">{block.role}</h2>
      <p className="mt-1 font-bold">{block.name}</p>
      <address className="not-italic">
        {[...block.addressLines, block.country].filter(Boolean).map((line, index) => (
          <span key={index} className="block">
            {line}
          </span>
        ))}
      </address>
      {block.taxId ? <p>Tax id: {block.taxId}</p> : null}
    </div>
  );
}

export function InvoiceSheet({ invoice }: { invoice: InvoiceDocument }) {
  return (
    <Sheet labelledBy="invoice-heading">
      <header>
        <h1 id="invoice-heading" className="text-3xl font-bold">
          Invoice {invoice.number}
        </h1>
        <p className="mt-1 text-muted">Issued {invoice.issued}</p>
      </header>
      <div className="mt-8 grid gap-6 sm:grid-cols-2 print:grid-cols-2">
        <Party block={invoice.seller} />
        <Party block={invoice.buyer} />
      </div>
      <table className="mt-8 w-full border-collapse text-left">
        <caption className="sr-only">What the sponsor paid for</caption>
        <thead>
          <tr className="border-b border-ink/20">
            <th scope="col" className="py-2 pr-4 font-semibold">
              Description
            </th>
            <th scope="col" className="py-2 text-right font-semibold">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {invoice.lines.map((line, index) => (
            <tr key={index} className="border-b border-ink/10 align-top">
              <td className={`py-2 pr-4 ${index > 0 ? "pl-4" : ""}`}>
                <span className="block">{line.description}</span>
                {line.detail ? <span className="block text-sm text-muted">{line.detail}</span> : null}
              </td>
              <td className="py-2 text-right whitespace-nowrap">{line.amount ?? <span className="sr-only">Included</span>}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" className="py-3 pr-4 text-left font-bold">
              Total paid
            </th>
            <td className="py-3 text-right font-bold whitespace-nowrap">{invoice.total}</td>
          </tr>
        </tfoot>
      </table>
      {invoice.taxLine ? <p className="mt-4 font-semibold">{invoice.taxLine}</p> : null}
      {invoice.taxNote ? <p className="mt-1 text-sm text-muted">{invoice.taxNote}</p> : null}
      <p className="mt-6">{invoice.paymentNote}</p>
    </Sheet>
  );
}

export function StatementSheet({ statement }: { statement: StatementDocument }) {
  return (
    <Sheet labelledBy="statement-heading">
      <header>
        <h1 id="statement-heading" className="text-3xl font-bold">
          {statement.title}
        </h1>
        <p className="mt-1 text-muted">
          {statement.dealTitle} · for {statement.creatorName}, sponsored by {statement.sponsorName}
        </p>
      </header>
      <table className="mt-8 w-full border-collapse text-left">
        <caption className="text-left text-xl font-bold">Summary</caption>
        <tbody>
          {statement.summary.map((row) => (
            <tr key={row.label} className="border-b border-ink/10">
              <th scope="row" className="py-2 pr-4 font-normal">
                {row.label}
              </th>
              <td className="py-2 text-right whitespace-nowrap">{row.amount}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2 className="mt-8 text-xl font-bold">Movements</h2>
      {statement.entries.length === 0 ? (
        <p className="mt-2 text-muted">No money has moved for this deal yet.</p>
      ) : (
        <table className="mt-2 w-full border-collapse text-left">
          <thead>
            <tr className="border-b border-ink/20">
              <th scope="col" className="py-2 pr-4 font-semibold">
                What and when
              </th>
              <th scope="col" className="py-2 text-right font-semibold">
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            {statement.entries.map((entry, index) => (
              <tr key={index} className="border-b border-ink/10 align-top">
                <td className="py-2 pr-4">
                  <span className="block">{entry.what}</span>
                  <span className="block text-sm text-muted">{entry.date}</span>
                </td>
                <td className="py-2 text-right whitespace-nowrap">{entry.amount}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="mt-6 text-sm text-muted">{statement.note}</p>
    </Sheet>
  );
}
