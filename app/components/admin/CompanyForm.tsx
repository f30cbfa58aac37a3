import { Form } from "react-router";
import { TextArea, TextField, primaryButton } from "#page-kit/forms";
import type { CompanyFieldErrors, FlatCompany } from "#server/domains/sponsor-directory/company-fields";

const SOURCE_FIELDS = [
  ["website_source", "Source of the website"],
  ["blurb_source", "Source of the blurb"],
  ["tags_source", "Source of the tags"],
  ["sponsors_source", "Source of what they sponsor"],
  ["apply_source", "Source of how to apply"],
] as const;

/**
 * The add / edit form of one company. Every fact can cite the public page it came from: one
 * source for all, and optionally one per fact (shown beside that fact on the Pro page).
 */
export function CompanyForm({
  values,
  errors,
  allTags,
  submitLabel,
  busy,
}: {
  values: FlatCompany | null;
  errors: CompanyFieldErrors;
  allTags: string[];
  submitLabel: string;
  busy: boolean;
}) {
  const chosen = new Set((values?.tags ?? "").split(";").map((t) => t.trim()));
  const v = (name: keyof FlatCompany) => values?.[name] ?? "";
  return (
    <Form method="post" className="mt-6 grid max-w-2xl gap-5" noValidate>
      <TextField label="Name" name="name" defaultValue={v("name")} error={errors.name} required maxLength={80} autoComplete="off" />
      <TextField label="Website" name="website" type="url" defaultValue={v("website")} error={errors.website} required hint="https://…" />
      <fieldset aria-describedby={errors.tags ? "tags-error" : undefined}>
        <legend className="font-medium">Tags (1 to 5)</legend>
        <div className="mt-2 flex flex-wrap gap-2">
          {allTags.map((tag) => (
            <label key={tag} className="inline-flex items-center gap-2 rounded-full border border-ink/20 px-3 py-1 text-sm">
              <input type="checkbox" name="tags" value={tag} defaultChecked={chosen.has(tag)} />
              {tag}
            </label>
          ))}
        </div>
        {errors.tags ? (
          <p id="tags-error" className="mt-1 text-sm font-medium text-red-700">
            {errors.tags}
          </p>
        ) : null}
      </fieldset>
      <TextArea label="Blurb" name="blurb" rows={4} defaultValue={v("blurb")} error={errors.blurb} required hint="Two or three sentences, 80–420 characters." />
      <TextArea label="What they sponsor" name="sponsors" rows={2} defaultValue={v("sponsors")} error={errors.sponsors} hint="Optional, up to 400 characters." />
      <TextArea label="How to apply" name="apply" rows={3} defaultValue={v("apply")} error={errors.apply} required hint="In our words, 20–400 characters: the company's own programme, never a person." />
      <TextField label="Apply page" name="apply_url" type="url" defaultValue={v("apply_url")} error={errors.apply_url} hint="Optional: the company's own page for creators." />
      <TextField
        label="Source"
        name="source"
        type="url"
        defaultValue={v("source")}
        error={errors.source}
        hint="The public page that confirms these facts. Required for a real company."
      />
      <fieldset className="grid gap-4 rounded-lg border border-ink/15 p-4">
        <legend className="px-1 font-medium">Sources per fact (optional)</legend>
        <p className="text-sm text-muted">When a fact comes from a different public page, cite it here; it is shown next to that fact.</p>
        {SOURCE_FIELDS.map(([name, label]) => (
          <TextField key={name} label={label} name={name} type="url" defaultValue={v(name)} error={errors[name]} />
        ))}
      </fieldset>
      <div>
        <button type="submit" name="intent" value="save" className={primaryButton} disabled={busy}>
          {submitLabel}
        </button>
      </div>
    </Form>
  );
}
