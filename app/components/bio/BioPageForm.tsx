import type { BioPageFieldErrors, BioPageFormInput } from "#server/domains/bio/form";
import type { SponsorshipChoices } from "#server/domains/bio/sponsorship-options";
import { FormNotice, TextArea, TextField } from "#page-kit/forms";
import { isAddressMessage, LinkRows } from "./LinkRows";
import { SponsorshipPicker } from "./SponsorshipPicker";

/** The form's choices, from the bio page rules: link types and the SPEC limits. */
export type BioFormOptions = { linkTypes: { value: string; label: string }[]; maxLinks: number; maxSponsorships: number };

type Props = {
  values: BioPageFormInput;
  errors: BioPageFieldErrors;
  message?: string;
  choices: SponsorshipChoices;
  options: BioFormOptions;
  bioOrigin: string;
  /** Set when editing: the page's permanent ending, shown read-only. */
  fixedEnding?: string;
  locale: string;
};

const FIELD_ORDER = ["name", "customEnding", "blurb", "links", "sponsorships"];

/** The field errors as a list for the summary, in the form's order, rows by number. */
function summary(errors: BioPageFieldErrors): { field: string; label: string; message: string; order: number }[] {
  const labels: Record<string, string> = { name: "Name", customEnding: "Custom ending", blurb: "About", links: "Links", sponsorships: "Sponsorship options" };
  return Object.entries(errors)
    .flatMap(([field, message]) => {
      if (!message) return [];
      const row = /^links\.(\d+)(\.title)?$/.exec(field);
      const label = row ? `Link ${Number(row[1]) + 1}${row[2] ? " title" : ""}` : (labels[field] ?? field);
      const control = row?.[2] ? "title" : isAddressMessage(message) ? "url" : "type";
      const target = row ? `link-${control}-${row[1]}` : field === "links" || field === "sponsorships" ? `${field}-hint` : `field-${field}`;
      return [{ field: target, label, message, order: row ? 3 + Number(row[1]) / 100 + (row[2] ? 0.001 : 0) : FIELD_ORDER.indexOf(field) }];
    })
    .sort((a, b) => a.order - b.order);
}

/**
 * Name, custom ending, about text, links and sponsorship options (SPEC §2.5, §3), without a form or
 * a button; they work without JavaScript: the new-page form's, and a part of the editor's one form (app/routes/bio/edit.tsx), which saves them with every other section.
 */
export function BioPageFields({ values, errors, message, choices, options, bioOrigin, fixedEnding, locale }: Props) {
  const host = new URL(bioOrigin).host;
  const problems = summary(errors);
  return (
    <div className="space-y-8">
      {message ? <FormNotice>{message}</FormNotice> : null}
      {problems.length > 0 ? (
        <FormNotice>
          <p className="font-semibold">Please correct {problems.length === 1 ? "this field" : `these ${problems.length} fields`}:</p>
          <ul className="mt-1 list-disc pl-5">
            {problems.map((problem) => (
              <li key={problem.field}>
                <a href={`#${problem.field}`}>{problem.label}</a>: {problem.message}
              </li>
            ))}
          </ul>
        </FormNotice>
      ) : null}

      <TextField label="Name" name="name" defaultValue={values.name} error={errors.name} aria-required="true" autoComplete="off" hint="Your name or your business's, as the page's heading." />

      <EndingField host={host} bioOrigin={bioOrigin} value={fixedEnding ?? values.customEnding} fixed={fixedEnding !== undefined} error={errors.customEnding} />

      <TextArea label="About" name="blurb" rows={5} defaultValue={values.blurb} error={errors.blurb} hint="A few lines about you or your business. Under 1000 characters." />

      <LinkRows initial={values.links} errors={errors} linkTypes={options.linkTypes} maxLinks={options.maxLinks} />

      <SponsorshipPicker choices={choices} chosen={values.sponsorships} error={errors.sponsorships} locale={locale} max={options.maxSponsorships} />
    </div>
  );
}

/** The custom ending after the bio host's name; permanent, so read-only once the page exists. */
function EndingField({ host, bioOrigin, value, fixed, error }: { host: string; bioOrigin: string; value: string; fixed: boolean; error?: string }) {
  const hintId = "field-customEnding-hint";
  const errorId = error ? "field-customEnding-error" : undefined;
  return (
    <div>
      <label htmlFor="field-customEnding" className="block font-medium">
        Custom ending
      </label>
      <div className={`mt-1 flex flex-wrap items-stretch overflow-hidden rounded-lg border focus-within:border-primary focus-within:ring-2 focus-within:ring-primary/40 ${error ? "border-red-700" : "border-ink/25"} ${fixed ? "bg-ink/5" : ""}`}>
        <span className="flex items-center break-all bg-ink/5 px-3 py-2.5 text-muted" aria-hidden="true">
          {host}/
        </span>
        <input
          id="field-customEnding"
          name="customEnding"
          defaultValue={value}
          readOnly={fixed}
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={[hintId, errorId].filter(Boolean).join(" ")}
          className="min-w-0 flex-1 basis-40 border-0 px-3 py-2.5 text-base focus:outline-none read-only:bg-transparent"
        />
      </div>
      <div id={hintId} className="mt-1 text-sm text-muted">
        {fixed ? (
          <>
            Your page's address is{" "}
            {/* `?saved`: the bio host answers as of every committed change, so the owner sees their last save (ADR 0046). */}
            <a href={`${bioOrigin}/${value}?saved`} target="_blank" rel="noopener noreferrer" className="break-all">
              {host}/{value}
            </a>
            . The ending is permanent and can't be changed.
          </>
        ) : (
          <>Lowercase letters, numbers and underscores. Leave it blank and we'll make one for you. You can't change it later.</>
        )}
      </div>
      {error ? (
        <p id={errorId} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
