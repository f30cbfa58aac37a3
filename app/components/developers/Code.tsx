import type { ReactNode } from "react";

/** A block of code that scrolls sideways on a phone; focusable so a keyboard can scroll it too. */
export function CodeBlock({ label, children }: { label: string; children: string }) {
  return (
    <pre tabIndex={0} aria-label={label} className="mt-3 overflow-x-auto rounded-lg bg-ink p-4 text-sm leading-relaxed text-white">
      <code>{children}</code>
    </pre>
  );
}

/** A table that scrolls sideways on a phone instead of squeezing its columns. */
export function ScrollTable({ label, children, narrow = false }: { label: string; children: ReactNode; narrow?: boolean }) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className="mt-3 overflow-x-auto rounded-lg border border-ink/15">
      <table className={`w-full border-collapse text-left text-sm ${narrow ? "" : "min-w-[36rem]"}`}>{children}</table>
    </div>
  );
}

export const th = "border-b border-ink/15 bg-ink/5 px-3 py-2 font-semibold";
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
