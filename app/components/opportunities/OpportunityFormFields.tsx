import { Form } from "react-router";
import type { FieldErrors, OpportunityFormInput } from "#server/opportunities/form";
import { MAX_POST_TAGS } from "#server/opportunities/form";
import { TAG_GROUPS, type TagCatalogue } from "#server/opportunities/tags";
import { useHydrated } from "#app/lib/use-hydrated";
import { primaryButton, TextArea, TextField } from "#app/components/forms";

type Props = {
  values: Partial<OpportunityFormInput>;
  errors: FieldErrors;
  catalogue: TagCatalogue;
  submitLabel: string;
  busy: boolean;
  docId?: string;
  /** The saved deadline (edit page), shown in the reader's time zone once the browser runs. */
  deadlineIso?: string | null;
};

const pad = (n: number) => String(n).padStart(2, "0");

function deadlineParts(iso: string, local: boolean): { date: string; time: string } {
  const d = new Date(iso);
  if (!local) return { date: iso.slice(0, 10), time: iso.slice(11, 16) };
  return { date: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`, time: `${pad(d.getHours())}:${pad(d.getMinutes())}` };
}

/** The opportunity form (SPEC §3 fields). Works without JavaScript; with it, the deadline uses the reader's time zone. */
export function OpportunityFormFields({ values, errors, catalogue, submitLabel, busy, docId, deadlineIso }: Props) {
  const hydrated = useHydrated();
  const chosen = new Set(values.tags ?? []);
  const deadline = deadlineIso ? deadlineParts(deadlineIso, hydrated) : { date: values.deadlineDate, time: values.deadlineTime };
  return (
    <Form method="post" noValidate className="mt-8 space-y-6">
      {docId ? <input type="hidden" name="docId" value={docId} /> : null}
      <input type="hidden" name="tzOffset" value={hydrated ? String(new Date().getTimezoneOffset()) : "0"} />
      <TextField label="Title" name="title" defaultValue={values.title} error={errors.title} aria-required="true" />
      <TextField label="Organization" name="organization" defaultValue={values.organization} error={errors.organization} />
      <TextArea label="Description" name="description" rows={6} defaultValue={values.description} error={errors.description} hint="What you offer, who you're looking for and what you need delivered. Under 1000 characters." />
      <TextArea label="Highlights" name="bullets" rows={4} defaultValue={values.bullets} error={errors.bullets} hint="One per line, up to 10: requirements or benefits." />
      <div className="grid gap-6 sm:grid-cols-2">
        <TextField
          label="Minimum contribution (US dollars)"
          name="minContribution"
          inputMode="numeric"
          defaultValue={values.minContribution}
          error={errors.minContribution}
          hint="Leave blank or 0 if funds won't be collected through the platform."
        />
        <TextField label="Website" name="website" type="url" placeholder="https://" defaultValue={values.website} error={errors.website} />
      </div>
      <fieldset className="grid gap-6 sm:grid-cols-2">
        <legend className="mb-2 font-medium">Application deadline (optional)</legend>
        <TextField key={`date-${hydrated}`} label="Date" name="deadlineDate" type="date" defaultValue={deadline.date} error={errors.deadlineDate} />
        <TextField
          key={`time-${hydrated}`}
          label="Time"
          name="deadlineTime"
          type="time"
          defaultValue={deadline.time}
          error={errors.deadlineTime}
          hint={hydrated ? "In your time zone." : "In UTC."}
        />
      </fieldset>
      <fieldset className="grid gap-6 sm:grid-cols-3">
        <legend className="mb-2 font-medium">Contact</legend>
        <TextField label="Contact name" name="contactName" defaultValue={values.contactName} error={errors.contactName} />
        <TextField label="Contact email" name="contactEmail" type="email" defaultValue={values.contactEmail} error={errors.contactEmail} />
        <TextField label="Contact phone" name="contactPhone" type="tel" defaultValue={values.contactPhone} error={errors.contactPhone} />
      </fieldset>
      <fieldset aria-describedby="tags-hint">
        <legend className="font-medium">Tags</legend>
        <p id="tags-hint" className="mt-1 text-sm text-muted">
          Choose up to {MAX_POST_TAGS} so creators find your post when they filter.
        </p>
        {errors.tags ? <p className="mt-1 text-sm font-medium text-red-700">{errors.tags}</p> : null}
        {TAG_GROUPS.map((group) => (
          <details key={group.kind} open={group.kind === "sponsorship_type" || catalogue[group.kind].some((t) => chosen.has(t))} className="mt-3 rounded-lg border border-ink/10 p-3">
            <summary className="cursor-pointer font-medium">{group.label}</summary>
            <div className="mt-2 flex flex-wrap gap-x-4 gap-y-2">
              {catalogue[group.kind].map((tag) => (
                <label key={tag} className="inline-flex items-center gap-2 text-sm">
                  <input type="checkbox" name="tags" value={tag} defaultChecked={chosen.has(tag)} className="h-4 w-4 accent-primary" />
                  {tag}
                </label>
              ))}
            </div>
          </details>
        ))}
      </fieldset>
      <button type="submit" className={primaryButton} disabled={busy}>
        {busy ? "Saving..." : submitLabel}
      </button>
    </Form>
  );
}
