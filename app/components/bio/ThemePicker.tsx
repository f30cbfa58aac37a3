import { useState } from "react";
import {
  BIO_FONTS,
  checkContrast,
  CUSTOM_PRESET,
  fontStack,
  formatRatio,
  normaliseHex,
  presetById,
  THEME_FIELD_NAMES,
  THEME_PRESETS,
  type BioThemeColour,
} from "#isomorphic/bio-theme";
import type { ThemeFieldErrors, ThemeFormInput } from "#server/domains/bio/theme";
import { FormNotice } from "#page-kit/forms";
import { useHydrated } from "#app/lib/use-hydrated";
import { PresetCard } from "./PresetCard";

type Props = {
  /** The saved theme, or what was submitted when it was refused. */
  initial: ThemeFormInput;
  errors: ThemeFieldErrors;
};

const COLOUR_FIELDS: { key: BioThemeColour; label: string; hint: string }[] = [
  { key: "background", label: "Background", hint: "The page behind everything." },
  { key: "text", label: "Text", hint: "Your name, about text and headings." },
  { key: "button", label: "Buttons", hint: "Link buttons and cards." },
  { key: "buttonText", label: "Button text", hint: "Words on the buttons." },
];

/**
 * The page's look: a preset, or custom colours, and a font. Fields of the
 * editor's one form, saved with every other part by its Save; without
 * JavaScript a preset is used as it is, and the colour fields count when
 * Custom is chosen. With
 * JavaScript a preset fills the fields, typing a colour chooses Custom, and
 * the contrast of each pair is shown as it changes (the server checks again).
 */
export function ThemePicker({ initial, errors }: Props) {
  const hydrated = useHydrated();
  const [preset, setPreset] = useState(initial.preset);
  const [font, setFont] = useState(initial.font);
  const [colours, setColours] = useState<Record<BioThemeColour, string>>({
    background: initial.background,
    text: initial.text,
    button: initial.button,
    buttonText: initial.buttonText,
  });

  function choosePreset(id: string) {
    setPreset(id);
    const chosen = presetById(id);
    if (!chosen) return;
    const { background, text, button, buttonText } = chosen.theme;
    setColours({ background, text, button, buttonText });
    setFont(chosen.theme.font);
  }

  function changeColour(key: BioThemeColour, value: string) {
    setColours((current) => ({ ...current, [key]: value }));
    setPreset(CUSTOM_PRESET);
  }

  const problems = Object.entries(errors).filter(([, message]) => message);
  return (
    <div role="group" className="space-y-6" aria-labelledby="look-heading">
      <div>
        <h2 id="look-heading" className="text-2xl font-bold">
          Look
        </h2>
        <p className="mt-1 text-muted">Colours and a font for your page. Every choice stays readable: text must meet WCAG AA contrast.</p>
      </div>
      {problems.length > 0 ? (
        <FormNotice>
          <p className="font-semibold">Your page's look wasn't saved:</p>
          <ul className="mt-1 list-disc pl-5">
            {problems.map(([field, message]) => (
              <li key={field}>{message}</li>
            ))}
          </ul>
        </FormNotice>
      ) : null}

      <fieldset>
        <legend className="font-medium">Preset</legend>
        <div className="mt-2 grid grid-cols-2 gap-3 sm:grid-cols-3">
          {THEME_PRESETS.map((option) => (
            <PresetCard key={option.id} preset={option} idPrefix="theme-preset" checked={preset === option.id} onChoose={choosePreset} />
          ))}
          <div>
            <input
              type="radio"
              id="theme-preset-custom"
              name={THEME_FIELD_NAMES.preset}
              value={CUSTOM_PRESET}
              checked={preset === CUSTOM_PRESET}
              onChange={() => setPreset(CUSTOM_PRESET)}
              className="peer sr-only"
            />
            <label
              htmlFor="theme-preset-custom"
              className="flex h-full min-h-24 cursor-pointer flex-col justify-between rounded-xl border-2 border-dashed border-ink/25 p-3 peer-checked:border-solid peer-checked:border-primary peer-checked:ring-2 peer-checked:ring-primary peer-focus-visible:outline peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-primary"
            >
              <span className="text-sm text-muted">Your own colours, below</span>
              <span className="flex items-center justify-between text-sm font-medium">
                Custom
                {preset === CUSTOM_PRESET ? <span aria-hidden="true">✓</span> : null}
              </span>
            </label>
          </div>
        </div>
        {errors.preset ? <p className="mt-1 text-sm font-medium text-red-700">{errors.preset}</p> : null}
      </fieldset>

      <fieldset>
        <legend className="font-medium">Custom colours</legend>
        <p id="theme-colours-hint" className="mt-1 text-sm text-muted">
          {hydrated ? "Pick a colour or type its hex code, like #1a2b3c." : "Hex codes, like #1a2b3c. They are used when Custom is chosen above."}
        </p>
        <div className="mt-3 grid gap-4 sm:grid-cols-2">
          {COLOUR_FIELDS.map(({ key, label, hint }) => (
            <ColourField key={key} field={key} label={label} hint={hint} value={colours[key]} error={errors[key]} picker={hydrated} onChange={(value) => changeColour(key, value)} />
          ))}
        </div>
      </fieldset>

      <ContrastReadout colours={colours} />

      <div>
        <label htmlFor="theme-font" className="block font-medium">
          Font
        </label>
        <select
          id="theme-font"
          name={THEME_FIELD_NAMES.font}
          value={font}
          onChange={(event) => setFont(event.target.value)}
          aria-invalid={errors.font ? true : undefined}
          aria-describedby={`theme-font-hint${errors.font ? " theme-font-error" : ""}`}
          className={`mt-1 block w-full rounded-lg border px-3 py-2.5 text-base ${errors.font ? "border-red-700" : "border-ink/25"}`}
          style={{ fontFamily: fontStack(font) }}
        >
          {BIO_FONTS.map((option) => (
            <option key={option.id} value={option.id}>
              {option.label}
            </option>
          ))}
        </select>
        <p id="theme-font-hint" className="mt-1 text-sm text-muted">
          Fonts already on your visitors' phones: nothing to download, so your page stays fast.
        </p>
        {errors.font ? (
          <p id="theme-font-error" className="mt-1 text-sm font-medium text-red-700">
            {errors.font}
          </p>
        ) : null}
      </div>

    </div>
  );
}

function ColourField({
  field,
  label,
  hint,
  value,
  error,
  picker,
  onChange,
}: {
  field: BioThemeColour;
  label: string;
  hint: string;
  value: string;
  error?: string;
  picker: boolean;
  onChange: (value: string) => void;
}) {
  const id = `theme-${field}`;
  const hex = normaliseHex(value);
  return (
    <div>
      <label htmlFor={id} className="block font-medium">
        {label}
      </label>
      <div className="mt-1 flex items-center gap-2">
        {picker ? (
          <input
            type="color"
            aria-label={`${label} colour picker`}
            value={hex ?? "#000000"}
            onChange={(event) => onChange(event.target.value)}
            className="h-11 w-12 shrink-0 cursor-pointer rounded-lg border border-ink/25 bg-white p-1"
          />
        ) : (
          <span aria-hidden="true" className="h-11 w-12 shrink-0 rounded-lg border border-ink/25" style={{ background: hex ?? "transparent" }} />
        )}
        <input
          id={id}
          name={THEME_FIELD_NAMES[field]}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={7}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
          className={`block w-full min-w-0 rounded-lg border px-3 py-2.5 font-mono text-base ${error ? "border-red-700" : "border-ink/25"}`}
        />
      </div>
      <p id={`${id}-hint`} className="mt-1 text-sm text-muted">
        {hint}
      </p>
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Each colour pair's contrast as it stands, against the rule the server applies. */
function ContrastReadout({ colours }: { colours: Record<BioThemeColour, string> }) {
  const normalised = { background: normaliseHex(colours.background), text: normaliseHex(colours.text), button: normaliseHex(colours.button), buttonText: normaliseHex(colours.buttonText) };
  const complete = Object.values(normalised).every(Boolean);
  const checks = complete ? checkContrast(normalised as Record<BioThemeColour, string>) : [];
  const failing = checks.filter((check) => !check.passes);
  return (
    <div className="rounded-xl border border-ink/15 p-4">
      <h3 className="font-medium">Contrast</h3>
      {complete ? (
        <ul className="mt-2 space-y-1 text-sm">
          {checks.map((check) => (
            <li key={check.rule.field} className="flex flex-wrap justify-between gap-x-4" data-contrast={check.rule.field}>
              <span>{check.rule.label}</span>
              <span className={`font-semibold ${check.passes ? "text-ink" : "text-red-700"}`}>
                {check.passes ? `AA ✓ ${formatRatio(check.ratio)}` : `Too low: ${formatRatio(check.ratio)} (needs ${formatRatio(check.rule.minimum)})`}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      <p className="mt-2 text-sm text-muted" aria-live="polite">
        {!complete
          ? "Enter four colours to check their contrast."
          : failing.length === 0
            ? "Every pair is readable (WCAG AA)."
            : `${failing.map((check) => check.message).join(". ")}.`}
      </p>
    </div>
  );
}
