import type { ReactNode } from "react";
import type { FieldRow } from "#server/features/api/reference";

/**
 * A block of code that wraps its long lines inside its own box (a curl line or a JSON body is read, not
 * aligned), so it never widens the page; what still cannot break scrolls in the box, which a keyboard
 * can reach.
 */
export function CodeBlock({ label, children }: { label: string; children: string }) {
  return (
    <pre tabIndex={0} aria-label={label} className="mt-3 max-w-full overflow-x-auto whitespace-pre-wrap rounded-lg bg-ink p-4 text-sm leading-relaxed text-white [overflow-wrap:anywhere]">
      <code>{children}</code>
    </pre>
  );
}

/** A table that scrolls sideways on a phone instead of squeezing its columns. */
/** A reference table with its column headings; `children` are its body's rows. */
export function ScrollTable({ label, headers, children, narrow = false }: { label: string; headers: ReactNode[]; children: ReactNode; narrow?: boolean }) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className="mt-3 overflow-x-auto rounded-lg border border-ink/15">
      <table className={`w-full border-collapse text-left text-sm ${narrow ? "" : "min-w-[36rem]"}`}>
        <thead>
          <tr>
            {headers.map((header, index) => (
              <th key={index} scope="col" className="border-b border-ink/15 bg-ink/5 px-3 py-2 font-semibold">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

export const td = "border-b border-ink/10 px-3 py-2 align-top";

/** `code` spans inside a sentence from the document (its descriptions use Markdown backticks). */
export function InlineCode({ text }: { text: string }) {
  const parts = text.split(/(`[^`]+`)/g);
  return (
    <>
      {parts.map((part, i) =>
        part.startsWith("`") && part.endsWith("`") && part.length > 1 ? (
          <code key={i} className="rounded bg-ink/5 px-1 font-mono text-[0.9em]">
            {part.slice(1, -1)}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}

/** An object's fields as the OpenAPI document describes them; nested fields indented under their parent. */
export function FieldTable({ label, rows }: { label: string; rows: FieldRow[] }) {
  return (
    <ScrollTable label={label} headers={["Field", "Type", "Description"]}>
      {rows.map((row) => (
        <tr key={row.name}>
          <td className={td}>
            <code className="whitespace-nowrap font-mono" style={{ paddingLeft: `${row.depth * 1.25}rem` }}>
              {row.name}
            </code>
            {row.required ? null : <span className="ml-1 text-muted">(optional)</span>}
          </td>
          <td className={td}>{row.type}</td>
          <td className={td}>{row.description ? <InlineCode text={row.description} /> : null}</td>
        </tr>
      ))}
    </ScrollTable>
  );
}
