import { useState, type FormEvent, type MouseEvent, type ReactNode } from "react";
import { Form, Link } from "react-router";
import { presetById, THEME_PRESETS } from "#isomorphic/bio-theme";
import { NEW_PAGE_TIP_PRESETS, type NewPageExtras } from "#isomorphic/new-page";
import type { BioPageFieldErrors, BioPageFormInput } from "#server/domains/bio/form";
import type { ShowcasePage } from "#server/domains/bio/showcase";
import type { SponsorshipChoices } from "#server/domains/bio/sponsorship-options";
import { primaryButton } from "#page-kit/forms";
import { BioPageFields, type BioFormOptions } from "./BioPageForm";
import { LivePreview } from "./LivePreview";
import { ThemeChoice, TipsSwitch } from "./NewPageExtras";

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

// Not "Your name": the phone is an image named after the page, and a field's label must stay the only "Name" on the form.
const PREVIEW_NAME = "Your page";

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
          <BioPageFields values={values} errors={errors} message={message} choices={choices} options={options} bioOrigin={bioOrigin} locale={locale} />

          <ThemeChoice preset={preset} onChange={setPreset} />

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
