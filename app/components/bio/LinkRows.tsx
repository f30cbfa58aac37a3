import { useEffect, useRef, useState } from "react";
import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type Announcements, type DragEndEvent } from "@dnd-kit/core";
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import type { BioPageFieldErrors, LinkRowInput } from "#server/domains/bio/form";
import { useHydrated } from "#app/lib/use-hydrated";

type Row = { key: number; type: string; url: string; title: string; enabled: boolean };
type LinkTypeOption = { value: string; label: string };
/** Which of a row's controls gets focus after the rows change. */
type FocusTarget = { key: number; control: "type" | "move-up" | "move-down" } | { key: -1; control: "add" };

const smallButton =
  "inline-flex min-h-11 items-center justify-center rounded-full border border-primary bg-white px-4 py-2 text-sm font-semibold text-primary hover:bg-primary/5 disabled:cursor-not-allowed disabled:border-ink/20 disabled:text-muted";
const field = "mt-1 block w-full rounded-lg border px-3 py-2.5 text-base focus:border-primary";

/** The id dnd-kit gives a row: never 0, which it treats as no id. */
const sortId = (key: number) => `link-${key}`;

/**
 * The page's links as rows of (type, title, address, on/off), in the page's
 * order. "Add link", "Remove", "Move up" and "Move down" are submit buttons
 * with an `intent`: without JavaScript the server re-renders the form with
 * the rows changed and nothing saved; with it, the same buttons change the
 * rows in place, focus stays with the moved row and the move is announced.
 * With JavaScript a row can also be dragged by its handle (pointer, touch or
 * keyboard: Space, arrows, Space). Each row sends its own key (`linkKey`) and
 * its switch sends that key (`linkOn`), so the server matches a switch to its
 * row whatever order the rows are in. One link per type: with JavaScript a
 * type already used in another row can't be picked again (the server checks
 * it either way).
 */
export function LinkRows({ initial, errors, linkTypes, maxLinks }: { initial: LinkRowInput[]; errors: BioPageFieldErrors; linkTypes: LinkTypeOption[]; maxLinks: number }) {
  const hydrated = useHydrated();
  const [rows, setRows] = useState<Row[]>(() => initial.map((row, key) => ({ key, type: row.type, url: row.url, title: row.title ?? "", enabled: row.enabled !== false })));
  const [announcement, setAnnouncement] = useState("");
  const nextKey = useRef(initial.length);
  const focusTarget = useRef<FocusTarget | null>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const addRef = useRef<HTMLButtonElement>(null);
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));

  useEffect(() => {
    const target = focusTarget.current;
    focusTarget.current = null;
    if (!target) return;
    const control = (id: string) => listRef.current?.querySelector<HTMLElement>(`#${id}:not(:disabled)`);
    if (target.key === -1) return addRef.current?.focus();
    // A row moved to the top or bottom has that move button switched off: the other one takes focus.
    const other = target.control === "move-up" ? "move-down" : "move-up";
    (control(`link-${target.control}-${target.key}`) ?? (target.control === "type" ? null : control(`link-${other}-${target.key}`)) ?? addRef.current)?.focus();
  }, [rows]);

  const labelOf = (type: string) => linkTypes.find((option) => option.value === type)?.label;
  /** How a row is called in announcements: its title, its type, or its number. */
  const nameOf = (row: Row, index: number) => row.title.trim() || labelOf(row.type) || `Link ${index + 1}`;
  const positionOf = (id: string | number) => rows.findIndex((row) => sortId(row.key) === id);
  const change = (key: number, patch: Partial<Row>) => setRows((current) => current.map((row) => (row.key === key ? { ...row, ...patch } : row)));
  // Errors are by the row's position in the submitted form, which is the row's key until JavaScript changes the rows.
  const errorFor = (row: Row, part: "" | ".title") => (row.key < initial.length ? errors[`links.${row.key}${part}`] : undefined);

  function add(event: React.MouseEvent) {
    event.preventDefault();
    if (rows.length >= maxLinks) return;
    const key = nextKey.current++;
    focusTarget.current = { key, control: "type" };
    setRows((current) => [...current, { key, type: "", url: "", title: "", enabled: true }]);
  }

  function remove(event: React.MouseEvent, key: number) {
    event.preventDefault();
    const index = rows.findIndex((row) => row.key === key);
    const after = rows[index + 1] ?? rows[index - 1];
    focusTarget.current = after ? { key: after.key, control: "type" } : { key: -1, control: "add" };
    setAnnouncement(`${nameOf(rows[index]!, index)} removed.`);
    setRows((current) => current.filter((row) => row.key !== key));
  }

  function move(event: React.MouseEvent, from: number, to: number) {
    event.preventDefault();
    if (to < 0 || to >= rows.length) return;
    const row = rows[from]!;
    focusTarget.current = { key: row.key, control: to < from ? "move-up" : "move-down" };
    setAnnouncement(`${nameOf(row, from)} moved to position ${to + 1} of ${rows.length}.`);
    setRows((current) => arrayMove(current, from, to));
  }

  function dropped({ active, over }: DragEndEvent) {
    if (!over || active.id === over.id) return;
    setRows((current) => arrayMove(current, positionOf(active.id), positionOf(over.id)));
  }

  const named = (id: string | number) => {
    const index = positionOf(id);
    return index === -1 ? "The link" : nameOf(rows[index]!, index);
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${named(active.id)}, position ${positionOf(active.id) + 1} of ${rows.length}.`,
    onDragOver: ({ active, over }) => (over ? `${named(active.id)} is over position ${positionOf(over.id) + 1} of ${rows.length}.` : `${named(active.id)} is no longer over the list.`),
    onDragEnd: ({ active, over }) => (over ? `${named(active.id)} moved to position ${positionOf(over.id) + 1} of ${rows.length}.` : `${named(active.id)} dropped where it was.`),
    onDragCancel: ({ active }) => `Moving ${named(active.id)} was cancelled; it stays at position ${positionOf(active.id) + 1}.`,
  };

  return (
    <fieldset aria-describedby={`links-hint${errors.links ? " links-error" : ""}`}>
      <legend className="font-medium">Links</legend>
      <p id="links-hint" className="mt-1 text-sm text-muted">
        Up to {maxLinks} links, one of each type. Social networks show as a row of icons under your support block; the others as buttons with
        their title. Each address starts with http:// or https://. Reorder with Move up and Move down{hydrated ? ", or drag a row by its handle" : ""}.
      </p>
      {errors.links ? (
        <p id="links-error" className="mt-1 text-sm font-medium text-red-700">
          {errors.links}
        </p>
      ) : null}
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
      <DndContext
        id="link-rows"
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragEnd={dropped}
        accessibility={{
          announcements,
          screenReaderInstructions: { draggable: "To move this link, press Space, then the up and down arrow keys, then Space again to drop it or Escape to cancel." },
        }}
      >
        <SortableContext items={rows.map((row) => sortId(row.key))} strategy={verticalListSortingStrategy}>
          <ol ref={listRef} className="mt-3 space-y-4">
            {rows.map((row, index) => (
              <LinkRow
                key={row.key}
                row={row}
                index={index}
                count={rows.length}
                name={nameOf(row, index)}
                hydrated={hydrated}
                linkTypes={linkTypes}
                usedElsewhere={new Set(rows.filter((other) => other.key !== row.key).map((other) => other.type))}
                error={errorFor(row, "")}
                titleError={errorFor(row, ".title")}
                onChange={(patch) => change(row.key, patch)}
                onMove={(event, to) => move(event, index, to)}
                onRemove={(event) => remove(event, row.key)}
              />
            ))}
          </ol>
        </SortableContext>
      </DndContext>
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

type RowProps = {
  row: Row;
  index: number;
  count: number;
  name: string;
  hydrated: boolean;
  linkTypes: LinkTypeOption[];
  usedElsewhere: Set<string>;
  error?: string;
  titleError?: string;
  onChange: (patch: Partial<Row>) => void;
  onMove: (event: React.MouseEvent, to: number) => void;
  onRemove: (event: React.MouseEvent) => void;
};

/** SPEC's address messages ('URL must …', 'Must be under …', 'Required') belong to the address; the rest to the type. */
export function isAddressMessage(message: string): boolean {
  return message.startsWith("URL must") || message.startsWith("Must be under") || message === "Required";
}

function LinkRow({ row, index, count, name, hydrated, linkTypes, usedElsewhere, error, titleError, onChange, onMove, onRemove }: RowProps) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: sortId(row.key) });
  const errorId = error ? `link-error-${row.key}` : undefined;
  const titleErrorId = titleError ? `link-title-error-${row.key}` : undefined;
  const addressWrong = error !== undefined && isAddressMessage(error);
  const typeLabel = linkTypes.find((option) => option.value === row.type)?.label;
  const number = index + 1;
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={`relative rounded-xl border p-3 sm:p-4 ${row.enabled ? "border-ink/15 bg-white" : "border-dashed border-ink/30 bg-ink/5"} ${isDragging ? "z-10 shadow-lg" : ""}`}
    >
      <input type="hidden" name="linkKey" value={row.key} />
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        {hydrated ? (
          <button
            type="button"
            ref={setActivatorNodeRef}
            {...attributes}
            {...listeners}
            aria-label={`Drag ${name} to reorder`}
            className="inline-flex h-11 w-11 cursor-grab touch-none items-center justify-center rounded-lg text-muted hover:bg-ink/5 active:cursor-grabbing"
          >
            <svg viewBox="0 0 20 20" width="20" height="20" aria-hidden="true" fill="currentColor">
              <circle cx="7" cy="4" r="1.6" /><circle cx="13" cy="4" r="1.6" /><circle cx="7" cy="10" r="1.6" />
              <circle cx="13" cy="10" r="1.6" /><circle cx="7" cy="16" r="1.6" /><circle cx="13" cy="16" r="1.6" />
            </svg>
          </button>
        ) : null}
        <span className="font-semibold">Link {number}</span>
        {!row.enabled ? <span className="text-sm text-muted">Off: not on your page</span> : null}
        <label className="ml-auto inline-flex min-h-11 cursor-pointer items-center gap-2 text-sm font-medium">
          <input
            type="checkbox"
            role="switch"
            name="linkOn"
            value={row.key}
            checked={row.enabled}
            onChange={(event) => onChange({ enabled: event.target.checked })}
            className="peer sr-only"
          />
          <span
            aria-hidden="true"
            className="relative h-6 w-11 shrink-0 rounded-full bg-ink/30 transition-colors after:absolute after:left-0.5 after:top-0.5 after:h-5 after:w-5 after:rounded-full after:bg-white after:shadow after:transition-transform peer-checked:bg-primary peer-checked:after:translate-x-5 peer-focus-visible:outline peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-accent"
          />
          Show on page<span className="sr-only"> (link {number})</span>
        </label>
      </div>
      <div className="mt-2 grid gap-3 sm:grid-cols-2">
        <div>
          <label htmlFor={`link-type-${row.key}`} className="block text-sm font-medium">
            Link {number} type
          </label>
          <select
            id={`link-type-${row.key}`}
            name="linkType"
            value={row.type}
            onChange={(event) => onChange({ type: event.target.value })}
            aria-invalid={error && !addressWrong ? true : undefined}
            aria-describedby={errorId}
            className={`${field} ${error && !addressWrong ? "border-red-700" : "border-ink/25"}`}
          >
            <option value="">Choose…</option>
            {linkTypes.map((type) => (
              <option key={type.value} value={type.value} disabled={hydrated && usedElsewhere.has(type.value)}>
                {type.label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`link-title-${row.key}`} className="block text-sm font-medium">
            Link {number} title <span className="font-normal text-muted">(optional)</span>
          </label>
          <input
            id={`link-title-${row.key}`}
            name="linkTitle"
            value={row.title}
            onChange={(event) => onChange({ title: event.target.value })}
            aria-invalid={titleError ? true : undefined}
            aria-describedby={[`link-title-hint-${row.key}`, titleErrorId].filter(Boolean).join(" ")}
            className={`${field} ${titleError ? "border-red-700" : "border-ink/25"}`}
          />
          <p id={`link-title-hint-${row.key}`} className="mt-1 text-xs text-muted">
            {typeLabel ? `Empty shows "${typeLabel}".` : "Empty shows the type's name."}
          </p>
          {titleError ? (
            <p id={titleErrorId} className="mt-1 text-sm font-medium text-red-700">
              {titleError}
            </p>
          ) : null}
        </div>
        <div className="min-w-0 sm:col-span-2">
          <label htmlFor={`link-url-${row.key}`} className="block text-sm font-medium">
            Link {number} address
          </label>
          <input
            id={`link-url-${row.key}`}
            name="linkUrl"
            type="url"
            inputMode="url"
            placeholder="https://"
            value={row.url}
            onChange={(event) => onChange({ url: event.target.value })}
            aria-invalid={addressWrong ? true : undefined}
            aria-describedby={errorId}
            className={`${field} ${addressWrong ? "border-red-700" : "border-ink/25"}`}
          />
        </div>
      </div>
      {error ? (
        <p id={errorId} className="mt-2 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
      <div className="mt-3 flex flex-wrap gap-2">
        <button type="submit" id={`link-move-up-${row.key}`} name="intent" value={`move-link:${index}:up`} onClick={(event) => onMove(event, index - 1)} disabled={index === 0} className={smallButton}>
          Move up<span className="sr-only"> link {number}</span>
        </button>
        <button type="submit" id={`link-move-down-${row.key}`} name="intent" value={`move-link:${index}:down`} onClick={(event) => onMove(event, index + 1)} disabled={index === count - 1} className={smallButton}>
          Move down<span className="sr-only"> link {number}</span>
        </button>
        <button type="submit" name="intent" value={`remove-link:${index}`} onClick={onRemove} className={`${smallButton} sm:ml-auto`}>
          Remove<span className="sr-only"> link {number}</span>
        </button>
      </div>
    </li>
  );
}
