import type { ReactNode } from "react";

export type Column<Row> = { header: string; cell: (row: Row) => ReactNode; numeric?: boolean };

const cellBase = "px-2 py-2 align-top md:border-b md:border-black/10";

type DataTableProps<Row> = {
  caption: string;
  rows: Row[];
  columns: Column<Row>[];
  rowKey: (row: Row) => string;
  /** What is shown instead of a table with no rows. */
  empty: string;
  /** The page's own heading already names the table: the caption is there for screen readers only. */
  captionHidden?: boolean;
};

/**
 * A back-office table: a real table with a caption and column headers on wide screens; on a phone
 * each row becomes a stacked card, every cell led by its column's name, so nothing scrolls sideways.
 */
export function DataTable<Row>({ caption, rows, columns, rowKey, empty, captionHidden = false }: DataTableProps<Row>) {
  if (rows.length === 0 && captionHidden) return <p className="mt-4">{empty}</p>;
  if (rows.length === 0) {
    return (
      <section aria-label={caption} className="mt-4">
        <h2 className="font-semibold">{caption}</h2>
        <p className="mt-2 text-muted">{empty}</p>
      </section>
    );
  }
  return (
    <table className="mt-4 w-full text-sm max-md:block">
      <caption className={captionHidden ? "sr-only" : "mb-2 text-left font-semibold max-md:block"}>{caption}</caption>
      <thead className="max-md:sr-only">
        <tr>
          {columns.map((column) => (
            <th key={column.header} scope="col" className={`${cellBase} ${column.numeric ? "text-right" : "text-left"}`}>
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="max-md:block max-md:space-y-3">
        {rows.map((row) => (
          <tr key={rowKey(row)} className="max-md:block max-md:rounded-lg max-md:border max-md:border-black/15 max-md:p-3">
            {columns.map((column) => (
              <td key={column.header} className={`${cellBase} max-md:flex max-md:justify-between max-md:gap-4 max-md:px-0 max-md:py-1 ${column.numeric ? "tabular-nums md:text-right" : ""}`}>
                <span aria-hidden="true" className="font-semibold text-muted md:hidden">
                  {column.header}
                </span>
                <span className="min-w-0 break-words max-md:text-right">{column.cell(row)}</span>
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
