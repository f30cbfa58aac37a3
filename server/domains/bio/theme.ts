import { and, eq } from "drizzle-orm";
import {
  checkContrast,
  CUSTOM_PRESET,
  DEFAULT_THEME,
  isBioFont,
  normaliseHex,
  presetById,
  THEME_COLOURS,
  THEME_FIELD_NAMES,
  type BioTheme,
  type BioThemeColour,
} from "#isomorphic/bio-theme";
import type { Db } from "#server/platform/db/client";
import { bioPages } from "#server/platform/db/schema";
import { domainError, fieldRefusal, success, type DomainError, type FieldRefusal, type Success } from "#server/platform/errors";
import { isBioPageId } from "./endings";

/** The theme picker's fields as typed. */
export type ThemeFormInput = { preset: string; font: string } & Record<BioThemeColour, string>;

/** Messages by field: `preset`, `font`, or a colour (a contrast message sits on the first colour of its pair). */
export type ThemeFieldErrors = Partial<Record<keyof ThemeFormInput, string>>;

export function formDataToThemeInput(form: FormData): ThemeFormInput {
  const text = (key: keyof ThemeFormInput) => {
    const value = form.get(THEME_FIELD_NAMES[key]);
    return typeof value === "string" ? value : "";
  };
  return { preset: text("preset"), font: text("font"), background: text("background"), button: text("button"), buttonText: text("buttonText"), text: text("text") };
}

/** A saved theme as the picker's fields show it. */
export function themeFormValues(theme: BioTheme): ThemeFormInput {
  const { preset, font, background, text, button, buttonText } = theme;
  return { preset: presetById(preset) ? preset : CUSTOM_PRESET, font, background, text, button, buttonText };
}

const COLOUR_LABELS: Record<BioThemeColour, string> = { background: "Background", text: "Text", button: "Button", buttonText: "Button text" };

/**
 * The colours and font as the page would wear them, without the contrast
 * rules: what the preview shows while the creator is still choosing. A
 * preset brings its colours; "custom" takes the typed ones, each that is not
 * a colour falling back to `base`'s.
 */
export function themeFromInput(input: ThemeFormInput, base: BioTheme): BioTheme {
  const font = isBioFont(input.font) ? input.font : base.font;
  const chosen = presetById(input.preset);
  if (chosen) return { ...chosen.theme, font };
  const colours = Object.fromEntries(THEME_COLOURS.map((key) => [key, normaliseHex(input[key]) ?? base[key]])) as Record<BioThemeColour, string>;
  return { preset: CUSTOM_PRESET, ...colours, font };
}

/**
 * A theme the page may wear: a preset (its colours; the font as chosen) or
 * custom colours, each a hex colour, that meet every contrast rule
 * (isomorphic/bio-theme.ts). All messages at once, each naming its pair and
 * ratio.
 */
export function parseThemeForm(input: ThemeFormInput): Success<{ theme: BioTheme }> | FieldRefusal<ThemeFieldErrors> {
  const errors: ThemeFieldErrors = {};
  if (!isBioFont(input.font)) errors.font = "Choose one of the fonts in the list";
  const chosen = presetById(input.preset);
  if (!chosen && input.preset !== CUSTOM_PRESET) errors.preset = "Choose one of the presets, or Custom";
  if (chosen) {
    if (Object.keys(errors).length > 0) return fieldRefusal(errors);
    return success({ theme: { ...chosen.theme, font: input.font } });
  }
  const colours: Partial<Record<BioThemeColour, string>> = {};
  for (const key of THEME_COLOURS) {
    const hex = normaliseHex(input[key]);
    if (hex) colours[key] = hex;
    else errors[key] = input[key].trim() === "" ? `${COLOUR_LABELS[key]} colour is required` : `${COLOUR_LABELS[key]} must be a colour like #1a2b3c`;
  }
  if (Object.keys(errors).length > 0) return fieldRefusal(errors);
  const complete = colours as Record<BioThemeColour, string>;
  for (const check of checkContrast(complete)) {
    if (!check.passes) errors[check.rule.field] ??= check.message;
  }
  if (Object.keys(errors).length > 0) return fieldRefusal(errors);
  return success({ theme: { preset: CUSTOM_PRESET, ...complete, font: input.font } });
}

export type SaveThemeError = FieldRefusal<ThemeFieldErrors> | DomainError<"not-found">;

/**
 * Saves the look of the owner's page; nothing is written unless the whole
 * theme passes. Someone else's page is "not found", as a missing one. The
 * write moves the guest page generation (migration 0022's trigger on
 * bio_pages), so the bio host draws the page again in its new colours.
 */
/** The look a page has before its owner chooses one, field by field. */
function isDefaultTheme(theme: BioTheme): boolean {
  return (Object.keys(DEFAULT_THEME) as (keyof BioTheme)[]).every((key) => theme[key] === DEFAULT_THEME[key]);
}

export async function saveBioTheme(db: Db, owner: { uid: string }, pageId: string, input: ThemeFormInput): Promise<Success<{ theme: BioTheme; customEnding: string }> | SaveThemeError> {
  const notFound = domainError("not-found", "This page doesn't exist or was deleted.");
  if (!isBioPageId(pageId)) return notFound;
  const parsed = parseThemeForm(input);
  if (parsed.kind === "ERROR") return parsed;
  // The editor's one Save sends the look with every save: the default look on a page that never
  // chose one stays "not chosen", so the setup checklist's theme step waits for a real choice.
  const mine = and(eq(bioPages.id, pageId), eq(bioPages.uid, owner.uid));
  const [stored] = isDefaultTheme(parsed.theme) ? await db.select({ theme: bioPages.theme }).from(bioPages).where(mine) : [];
  const keepUnchosen = stored !== undefined && stored.theme === null;
  const [saved] = await db
    .update(bioPages)
    .set({ theme: keepUnchosen ? null : parsed.theme, updatedAt: new Date() })
    .where(mine)
    .returning({ customEnding: bioPages.customEnding });
  if (!saved) return notFound;
  return success({ theme: parsed.theme, customEnding: saved.customEnding });
}
