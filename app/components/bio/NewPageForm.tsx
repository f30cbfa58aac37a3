import { useState, type FormEvent, type MouseEvent, type ReactNode } from "react";
import { Form, Link } from "react-router";
import { presetById, THEME_PRESETS } from "#isomorphic/bio-theme";
import { NEW_PAGE_TIP_PRESETS, type NewPageExtras } from "#isomorphic/new-page";
import type { BioPageFieldErrors, BioPageFormInput } from "#server/domains/bio/form";
import type { ShowcasePage } from "#server/domains/bio/showcase";
import type { SponsorshipChoices } from "#server/domains/bio/sponsorship-options";
import { FormNotice, primaryButton, TextArea, TextField } from "#page-kit/forms";
import type { BioFormOptions } from "./BioPageForm";
import { isAddressMessage, LinkRows } from "./LinkRows";
import { LivePreview } from "./LivePreview";
import { ThemeChoice, TipsSwitch } from "./NewPageExtras";
import { SponsorshipPicker } from "./SponsorshipPicker";

type Props = {
  values: BioPageFormInput;
  extras: NewPageExtras;
  errors: BioPageFieldErrors;
  message?: string;
  choices: SponsorshipChoices;
  options: BioFormOptions;
  bioOrigin: string;
  photoId: string | null;
  busy: boolean;
  locale: string;
  /** The photo's own form: it sits outside this one (forms don't nest), above it. */
  photo: ReactNode;
};

const FIELD_ORDER = ["name", "customEnding", "blurb", "links", "sponsorships"];
// Not "Your name": the phone is an image named after the page, and a field's label must stay the only "Name" on the form.
const PREVIEW_NAME = "Your page";

/** The field errors as a list for the summary, in the form's order, link rows by number (as the editor's form). */
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

type Typed = { name: string; blurb: string; links: string[] };

/** What the preview shows of the typed fields: the name, the about text, and the labels of the links switched on. */
function typedOf(form: FormData, options: BioFormOptions): Typed {
  const strings = (name: string) => form.getAll(name).map((value) => (typeof value === "string" ? value : ""));
  const text = (name: string) => strings(name)[0] ?? "";
  const keys = strings("linkKey");
  const on = new Set(strings("linkOn"));
  const titles = strings("linkTitle");
  const links = strings("linkType").flatMap((type, i) => {
    const label = titles[i]?.trim() || options.linkTypes.find((option) => option.value === type)?.label;
    const shown = keys.length === 0 || (keys[i] !== undefined && on.has(keys[i]!));
    return label && shown ? [label] : [];
  });
  return { name: text("name"), blurb: text("blurb"), links };
}

function typedFromValues(values: BioPageFormInput, options: BioFormOptions): Typed {
  const links = values.links.flatMap((link) => {
    const label = link.title?.trim() || options.linkTypes.find((option) => option.value === link.type)?.label;
    return label && link.enabled !== false ? [label] : [];
  });
  return { name: values.name, blurb: values.blurb, links };
}

/**
 * A first page in one form: name, ending, about, theme, links, sponsorships
 * and tips, with the page drawn live beside it (SPEC §2.5, §3). A plain form
 * that works without JavaScript; with it, every change redraws the preview
 * from the form's own fields, so the preview can't drift from what is sent.
 */
export function NewPageForm({ values, extras, errors, message, choices, options, bioOrigin, photoId, busy, locale, photo }: Props) {
  const host = new URL(bioOrigin).host;
  const problems = summary(errors);
  const [typed, setTyped] = useState<Typed>(() => typedFromValues(values, options));
  const [preset, setPreset] = useState(extras.preset);
  const [acceptTips, setAcceptTips] = useState(extras.acceptTips);

  const read = (event: FormEvent<HTMLFormElement>) => setTyped(typedOf(new FormData(event.currentTarget), options));
  // The link rows' buttons change the rows without an input event: read once React has drawn them.
  const readAfterClick = (event: MouseEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    requestAnimationFrame(() => setTyped(typedOf(new FormData(form), options)));
  };

  const page: ShowcasePage = {
    customEnding: "",
    name: typed.name.trim() || PREVIEW_NAME,
    blurb: typed.blurb.trim(),
    theme: (presetById(preset) ?? THEME_PRESETS[0]!).theme,
    photoId,
    links: typed.links.slice(0, 4),
    tips: acceptTips ? [...NEW_PAGE_TIP_PRESETS] : null,
    goal: null,
  };

  return (
    <div className="lg:grid lg:grid-cols-[minmax(0,1fr)_18rem] lg:gap-10">
      <div>
        <LivePreview page={page} placement="disclosure" />
        {photo}
        <Form method="post" noValidate className="mt-8 space-y-8" onInput={read} onChange={read} onClick={readAfterClick}>
          {/* The first submit button is the one Enter presses: creating, not the first row's "Remove". */}
          <button type="submit" name="intent" value="save" tabIndex={-1} aria-hidden="true" className="sr-only">
            Create page
          </button>
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

          <EndingField host={host} value={values.customEnding} error={errors.customEnding} />

          <TextArea label="About" name="blurb" rows={5} defaultValue={values.blurb} error={errors.blurb} hint="A few lines about you or your business. Under 1000 characters." />

          <ThemeChoice preset={preset} onChange={setPreset} />

          <LinkRows initial={values.links} errors={errors} linkTypes={options.linkTypes} maxLinks={options.maxLinks} />

          <SponsorshipPicker choices={choices} chosen={values.sponsorships} error={errors.sponsorships} locale={locale} max={options.maxSponsorships} />

          <TipsSwitch on={acceptTips} onChange={setAcceptTips} />

          <div className="flex flex-wrap items-center gap-4">
            <button type="submit" name="intent" value="save" className={primaryButton} disabled={busy}>
              {busy ? "Saving..." : "Create page"}
            </button>
            <Link to="/app/account/bizbio" className="font-semibold">
              Cancel
            </Link>
          </div>
        </Form>
      </div>
      <LivePreview page={page} placement="side" />
    </div>
  );
}

/** The custom ending after the bio host's name, as the editor's form asks for it on a new page. */
function EndingField({ host, value, error }: { host: string; value: string; error?: string }) {
  const hintId = "field-customEnding-hint";
  const errorId = error ? "field-customEnding-error" : undefined;
  return (
    <div>
      <label htmlFor="field-customEnding" className="block font-medium">
        Custom ending
      </label>
      <div className={`mt-1 flex flex-wrap items-stretch overflow-hidden rounded-lg border focus-within:border-primary focus-within:ring-2 focus-within:ring-primary/40 ${error ? "border-red-700" : "border-ink/25"}`}>
        <span className="flex items-center break-all bg-ink/5 px-3 py-2.5 text-muted" aria-hidden="true">
          {host}/
        </span>
        <input
          id="field-customEnding"
          name="customEnding"
          defaultValue={value}
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={[hintId, errorId].filter(Boolean).join(" ")}
          className="min-w-0 flex-1 basis-40 border-0 px-3 py-2.5 text-base focus:outline-none"
        />
      </div>
      <p id={hintId} className="mt-1 text-sm text-muted">
        Lowercase letters, numbers and underscores. Leave it blank and we'll make one for you. You can't change it later.
      </p>
      {error ? (
        <p id={errorId} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
