import { WEBHOOK_EVENT_TYPES } from "#isomorphic/webhook-events";

/**
 * The events an endpoint can receive, as checkboxes, each with what it means. A fieldset with a
 * legend, so a screen reader says the group's name and any error with each box.
 */
export function EventChoices({ chosen, error, idPrefix }: { chosen: readonly string[]; error?: string; idPrefix: string }) {
  const errorId = error ? `${idPrefix}-events-error` : undefined;
  return (
    <fieldset aria-describedby={errorId} aria-invalid={error ? true : undefined}>
      <legend className="font-medium">Events to send</legend>
      <ul className="mt-2 space-y-3">
        {WEBHOOK_EVENT_TYPES.map((event) => {
          const id = `${idPrefix}-event-${event.type.replace(".", "-")}`;
          return (
            <li key={event.type} className="flex items-start gap-3">
              <input
                type="checkbox"
                id={id}
                name="events"
                value={event.type}
                defaultChecked={chosen.includes(event.type)}
                aria-describedby={`${id}-description`}
                className="mt-1 size-5 shrink-0 accent-primary"
              />
              <div>
                <label htmlFor={id} className="font-medium">
                  {event.label} <code className="ml-1 rounded bg-ink/5 px-1.5 py-0.5 text-sm font-normal">{event.type}</code>
                </label>
                <p id={`${id}-description`} className="text-sm text-muted">
                  {event.description}
                </p>
              </div>
            </li>
          );
        })}
      </ul>
      {error ? (
        <p id={errorId} className="mt-2 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
