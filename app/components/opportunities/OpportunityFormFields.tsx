import { Form } from "react-router";
import type { FieldErrors, OpportunityFormInput } from "#server/domains/opportunities/form";
import { MAX_POST_TAGS, TAG_GROUPS, type TagCatalogue } from "#isomorphic/tag-groups";
import type { TimeZoneGroup } from "#server/domains/opportunities/time-zone-groups";
import { TimeZoneSelect } from "#app/components/opportunities/TimeZoneSelect";
import { primaryButton, TextArea, TextField } from "#page-kit/forms";

type Props = {
  values: Partial<OpportunityFormInput>;
  errors: FieldErrors;
  catalogue: TagCatalogue;
  submitLabel: string;
  busy: boolean;
  docId?: string;
  /** The way a new post runs unless the poster chooses: their account type's (a sponsor posts a brief). */
  defaultKind?: "brief" | "request";
  /** The zones to offer for the deadline, grouped (the server's list, so server and browser render the same options). */
  timeZones: TimeZoneGroup[];
};

/**
 * The opportunity form (SPEC §3 fields). Works without JavaScript. The
 * deadline is wall-clock time in the chosen zone: a saved post's zone, else
 * the browser's once it runs, else UTC (TimeZoneSelect) (docs/decisions/0008-deadline-time-zones.md).
 */
export function OpportunityFormFields({ values, errors, catalogue, submitLabel, busy, docId, timeZones, defaultKind = "request" }: Props) {
  const chosen = new Set(values.tags ?? []);
  return (
    <Form method="post" noValidate className="mt-8 space-y-6">
      {docId ? <input type="hidden" name="docId" value={docId} /> : null}
      <KindChoice chosen={values.kind || defaultKind} error={errors.kind} />
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
        <TextField label="Date" name="deadlineDate" type="date" defaultValue={values.deadlineDate} error={errors.deadlineDate} />
        <TextField label="Time" name="deadlineTime" type="time" defaultValue={values.deadlineTime} error={errors.deadlineTime} />
        <TimeZoneSelect groups={timeZones} saved={values.deadlineTimeZone} error={errors.deadlineTimeZone} />
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

const KINDS = [
  { value: "brief", label: "A brief: creators apply", hint: "You are a sponsor. Creators send a pitch with their price; you shortlist, answer with terms, or decline." },
  { value: "request", label: "A sponsorship request: sponsors make offers", hint: "You are a creator. Sponsors send offers with their terms; you accept, counter, or decline." },
] as const;

/** Which way the post runs: who answers it with what. */
function KindChoice({ chosen, error }: { chosen: string; error?: string }) {
  return (
    <fieldset aria-describedby={error ? "kind-error" : undefined}>
      <legend className="font-medium">How does it work?</legend>
      {error ? (
        <p id="kind-error" className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
      <div className="mt-2 grid gap-3 sm:grid-cols-2">
        {KINDS.map((kind) => (
          <label key={kind.value} className="flex cursor-pointer gap-3 rounded-lg border border-ink/15 p-3 has-[:checked]:border-primary has-[:checked]:bg-primary/5">
            <input type="radio" name="kind" value={kind.value} defaultChecked={chosen === kind.value} className="mt-1" />
            <span>
              <span className="block font-medium">{kind.label}</span>
              <span className="mt-1 block text-sm text-muted">{kind.hint}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
