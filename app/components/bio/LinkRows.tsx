import { useEffect, useRef, useState } from "react";
import type { BioPageFieldErrors } from "#server/bio/form";
import { useHydrated } from "#app/lib/use-hydrated";

type Row = { key: number; type: string; url: string };

const smallButton =
  "inline-flex items-center justify-center rounded-full border border-primary bg-white px-4 py-2 text-sm font-semibold text-primary hover:bg-primary/5 disabled:opacity-60";

/**
 * The page's links as rows of (type, address). "Add link" and "Remove" are
 * submit buttons with an `intent`: without JavaScript the server re-renders
 * the form with the rows changed and nothing saved; with it, the same buttons
 * change the rows in place. One link per type: with JavaScript a type already
 * used in another row can't be picked again (the server checks it either way).
 */
export function LinkRows({ initial, errors, linkTypes, maxLinks }: { initial: { type: string; url: string }[]; errors: BioPageFieldErrors; linkTypes: { value: string; label: string }[]; maxLinks: number }) {
  const hydrated = useHydrated();
  const [rows, setRows] = useState<Row[]>(() => initial.map((row, key) => ({ key, ...row })));
  const nextKey = useRef(initial.length);
  const focusRow = useRef<number | null>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const addRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (focusRow.current === null) return;
    const select = listRef.current?.querySelector<HTMLSelectElement>(`#link-type-${focusRow.current}`);
    focusRow.current = null;
    (select ?? addRef.current)?.focus();
  }, [rows]);

  const change = (key: number, patch: Partial<Row>) => setRows((current) => current.map((row) => (row.key === key ? { ...row, ...patch } : row)));
  // Errors are by the row's position in the submitted form, which is the row's key until JavaScript changes the rows.
  const errorFor = (row: Row) => (row.key < initial.length ? errors[`links.${row.key}`] : undefined);

  function add(event: React.MouseEvent) {
    event.preventDefault();
    if (rows.length >= maxLinks) return;
    const key = nextKey.current++;
    focusRow.current = key;
    setRows((current) => [...current, { key, type: "", url: "" }]);
  }

  function remove(event: React.MouseEvent, key: number) {
    event.preventDefault();
    const index = rows.findIndex((row) => row.key === key);
    const after = rows[index + 1] ?? rows[index - 1];
    focusRow.current = after ? after.key : -1;
    setRows((current) => current.filter((row) => row.key !== key));
  }

  return (
    <fieldset aria-describedby={`links-hint${errors.links ? " links-error" : ""}`}>
      <legend className="font-medium">Links</legend>
      <p id="links-hint" className="mt-1 text-sm text-muted">
        Up to {maxLinks} links, one of each type. Each address starts with http:// or https://.
      </p>
      {errors.links ? (
        <p id="links-error" className="mt-1 text-sm font-medium text-red-700">
          {errors.links}
        </p>
      ) : null}
      <ol ref={listRef} className="mt-3 space-y-4">
        {rows.map((row, index) => {
          const error = errorFor(row);
          const errorId = error ? `link-error-${row.key}` : undefined;
          // The address's messages are SPEC's 'URL must …' and 'Must be under …'; the rest are about the type.
          const addressWrong = error !== undefined && (error.startsWith("URL must") || error.startsWith("Must be under"));
          const usedElsewhere = new Set(rows.filter((other) => other.key !== row.key).map((other) => other.type));
          return (
            <li key={row.key} className="rounded-xl border border-ink/15 p-3 sm:p-4">
              <div className="grid gap-3 sm:grid-cols-[12rem_1fr_auto] sm:items-end">
                <div>
                  <label htmlFor={`link-type-${row.key}`} className="block text-sm font-medium">
                    Link {index + 1} type
                  </label>
                  <select
                    id={`link-type-${row.key}`}
                    name="linkType"
                    value={row.type}
                    onChange={(event) => change(row.key, { type: event.target.value })}
                    aria-invalid={error && !addressWrong ? true : undefined}
                    aria-describedby={errorId}
                    className={`mt-1 block w-full rounded-lg border px-3 py-2.5 text-base ${error && !addressWrong ? "border-red-700" : "border-ink/25"} focus:border-primary`}
                  >
                    <option value="">Choose…</option>
                    {linkTypes.map((type) => (
                      <option key={type.value} value={type.value} disabled={hydrated && usedElsewhere.has(type.value)}>
                        {type.label}
                      </option>
                    ))}
                  </select>
                </div>
                <div className="min-w-0">
                  <label htmlFor={`link-url-${row.key}`} className="block text-sm font-medium">
                    Link {index + 1} address
                  </label>
                  <input
                    id={`link-url-${row.key}`}
                    name="linkUrl"
                    type="url"
                    inputMode="url"
                    placeholder="https://"
                    value={row.url}
                    onChange={(event) => change(row.key, { url: event.target.value })}
                    aria-invalid={addressWrong ? true : undefined}
                    aria-describedby={errorId}
                    className={`mt-1 block w-full rounded-lg border px-3 py-2.5 text-base ${addressWrong ? "border-red-700" : "border-ink/25"} focus:border-primary`}
                  />
                </div>
                <button type="submit" name="intent" value={`remove-link:${index}`} onClick={(event) => remove(event, row.key)} className={smallButton}>
                  Remove<span className="sr-only"> link {index + 1}</span>
                </button>
              </div>
              {error ? (
                <p id={errorId} className="mt-2 text-sm font-medium text-red-700">
                  {error}
                </p>
              ) : null}
            </li>
          );
        })}
      </ol>
      {rows.length === 0 ? <p className="mt-3 text-muted">No links yet.</p> : null}
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <button ref={addRef} type="submit" name="intent" value="add-link" onClick={add} disabled={rows.length >= maxLinks} className={smallButton}>
          Add link
        </button>
        {rows.length >= maxLinks ? <span className="text-sm text-muted">That's the most a page can have.</span> : null}
      </div>
    </fieldset>
  );
}
