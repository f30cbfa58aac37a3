import { useEffect } from "react";
import { useHydrated } from "#app/lib/use-hydrated";
import type { TimeZoneGroup } from "#server/domains/opportunities/time-zone-groups";
import { SelectField } from "#page-kit/forms";

/** What the server renders chosen when no zone is saved: it can't know the reader's clock. */
const SERVER_DEFAULT = "UTC";
const FIELD_ID = "field-deadlineTimeZone";

/**
 * The deadline's time zone: common zones first, then every zone by region, each with its offset.
 * A saved (or just refused) choice stays chosen. Otherwise the server renders UTC, which is what
 * a browser without JavaScript sends; once the page runs, the browser's own zone is chosen
 * instead, unless the person already picked one. A zone the list lacks (a browser may name an
 * alias) is offered on its own at the top.
 */
export function TimeZoneSelect({ groups, saved, error }: { groups: TimeZoneGroup[]; saved: string | undefined; error?: string }) {
  const hydrated = useHydrated();
  const browserZone = hydrated && !saved ? Intl.DateTimeFormat().resolvedOptions().timeZone || null : null;
  useEffect(() => {
    const select = document.getElementById(FIELD_ID);
    if (browserZone && select instanceof HTMLSelectElement && select.value === SERVER_DEFAULT) select.value = browserZone;
  }, [browserZone]);

  const offered = new Set(groups.flatMap((group) => group.zones.map((choice) => choice.zone)));
  const own = saved || browserZone;
  const extra = own && !offered.has(own) ? own : null;
  return (
    <SelectField
      id={FIELD_ID}
      label="Time zone"
      name="deadlineTimeZone"
      defaultValue={saved || SERVER_DEFAULT}
      error={error}
      hint="The date and time are the clock time in this zone."
      className="sm:col-span-2"
    >
      {extra ? (
        <optgroup label="Your time zone">
          <option value={extra}>{extra.replace(/_/g, " ")}</option>
        </optgroup>
      ) : null}
      {groups.map((group) => (
        <optgroup key={group.region} label={group.region}>
          {group.zones.map((choice) => (
            <option key={choice.zone} value={choice.zone}>
              {choice.label}
            </option>
          ))}
        </optgroup>
      ))}
    </SelectField>
  );
}
