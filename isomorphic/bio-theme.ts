/**
 * A bio page's look: colours of the page, its buttons and its text, and a
 * font stack (no web font is downloaded). Stored on the page as chosen; the
 * public page, the editor's preview, checkout and the result pages all draw
 * from it. The contrast rules and why they are these: docs/decisions/0039-bio-page-themes.md.
 */
export type BioTheme = {
  /** The preset it was chosen as, or "custom" for colours the creator picked. */
  preset: string;
  background: string;
  button: string;
  buttonText: string;
  text: string;
  font: string;
};

export type BioThemeColour = "background" | "button" | "buttonText" | "text";
export const THEME_COLOURS: readonly BioThemeColour[] = ["background", "text", "button", "buttonText"];
export const CUSTOM_PRESET = "custom";

/** The theme picker's field names: prefixed, since the editor's preview sends every form of the page together. */
export const THEME_FIELD_NAMES: Record<"preset" | "font" | BioThemeColour, string> = {
  preset: "themePreset",
  font: "themeFont",
  background: "themeBackground",
  text: "themeText",
  button: "themeButton",
  buttonText: "themeButtonText",
};

/**
 * Font stacks of fonts phones and computers already have: the page downloads
 * none. Each ends in a generic family, so an unknown system still gets the kind.
 */
export const BIO_FONTS = [
  { id: "system", label: "System sans", stack: 'system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif' },
  { id: "serif", label: "Serif", stack: 'Charter,"Bitstream Charter","Sitka Text",Cambria,Georgia,"DejaVu Serif",serif' },
  { id: "rounded", label: "Rounded", stack: 'ui-rounded,"SF Pro Rounded","Hiragino Maru Gothic ProN",Quicksand,Comfortaa,Manjari,"Arial Rounded MT","Arial Rounded MT Bold",Calibri,sans-serif' },
  { id: "humanist", label: "Humanist", stack: 'Seravek,"Gill Sans Nova",Ubuntu,Calibri,"DejaVu Sans",source-sans-pro,sans-serif' },
  { id: "condensed", label: "Condensed", stack: 'Bahnschrift,"DIN Alternate","Franklin Gothic Medium","Nimbus Sans Narrow","Roboto Condensed","Arial Narrow",sans-serif-condensed,sans-serif' },
  { id: "mono", label: "Monospace", stack: 'ui-monospace,"Cascadia Code","Source Code Pro",Menlo,Consolas,"DejaVu Sans Mono",monospace' },
] as const;

export type BioFontId = (typeof BIO_FONTS)[number]["id"];

export function isBioFont(id: string): id is BioFontId {
  return BIO_FONTS.some((font) => font.id === id);
}

/** The CSS font stack of a font id (the system stack for an unknown one). */
export function fontStack(id: string): string {
  return (BIO_FONTS.find((font) => font.id === id) ?? BIO_FONTS[0]).stack;
}

/** Sponsorgrid's own purple and mint: the look of every page that never chose one. */
export const DEFAULT_THEME: BioTheme = {
  preset: "sponsorgrid",
  background: "#603f8b",
  button: "#b4fee7",
  buttonText: "#2b1a40",
  text: "#ffffff",
  font: "system",
};

export type ThemePreset = { id: string; name: string; theme: BioTheme };

const preset = (id: string, name: string, colours: Omit<BioTheme, "preset">): ThemePreset => ({ id, name, theme: { preset: id, ...colours } });

/** The presets the picker offers, in its order; every one passes the contrast rules (a test holds it). */
export const THEME_PRESETS: readonly ThemePreset[] = [
  { id: "sponsorgrid", name: "Sponsorgrid", theme: DEFAULT_THEME },
  preset("paper", "Paper", { background: "#faf7f0", text: "#1f1d1a", button: "#1f1d1a", buttonText: "#faf7f0", font: "serif" }),
  preset("midnight", "Midnight", { background: "#0f172a", text: "#e2e8f0", button: "#38bdf8", buttonText: "#0f172a", font: "system" }),
  preset("forest", "Forest", { background: "#14532d", text: "#f0fdf4", button: "#bbf7d0", buttonText: "#14532d", font: "humanist" }),
  preset("sunset", "Sunset", { background: "#fff1e6", text: "#4a1d1f", button: "#c2410c", buttonText: "#ffffff", font: "rounded" }),
  preset("ocean", "Ocean", { background: "#e0f2fe", text: "#0c4a6e", button: "#0369a1", buttonText: "#ffffff", font: "system" }),
  preset("candy", "Candy", { background: "#ffe4f1", text: "#5b0f3a", button: "#be185d", buttonText: "#ffffff", font: "rounded" }),
  preset("mono", "Mono", { background: "#ffffff", text: "#111111", button: "#111111", buttonText: "#ffffff", font: "mono" }),
];

export function presetById(id: string): ThemePreset | undefined {
  return THEME_PRESETS.find((candidate) => candidate.id === id);
}

/** "#ABC", "abc", " #AaBbCc " → "#aabbcc"; anything else → null. */
export function normaliseHex(value: string): string | null {
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim());
  if (!match) return null;
  const digits = match[1]!.toLowerCase();
  return `#${digits.length === 3 ? [...digits].map((digit) => digit + digit).join("") : digits}`;
}

const linear = (channel: number) => {
  const s = channel / 255;
  // The sRGB threshold WCAG 2.2 corrected its text to (0.04045); no 8-bit value falls between it and 0.03928.
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
};

/** WCAG 2.x relative luminance of a normalised "#rrggbb" colour, 0 (black) to 1 (white). */
export function relativeLuminance(hex: string): number {
  const value = Number.parseInt(hex.slice(1), 16);
  return 0.2126 * linear((value >> 16) & 255) + 0.7152 * linear((value >> 8) & 255) + 0.0722 * linear(value & 255);
}

/** WCAG 2.x contrast ratio of two "#rrggbb" colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * "7.2:1". Rounded down, so a ratio just under a threshold never reads as
 * meeting it (4.49 shows as 4.4, not 4.5).
 */
export function formatRatio(ratio: number): string {
  const tenths = Math.floor(ratio * 10 + 1e-9) / 10;
  return `${Number.isInteger(tenths) ? tenths.toFixed(0) : tenths.toFixed(1)}:1`;
}

export type ContrastRule = {
  /** The colour the message belongs to in the form. */
  field: BioThemeColour;
  fore: BioThemeColour;
  back: BioThemeColour;
  label: string;
  minimum: number;
  /** Why the minimum matters, to end the message. */
  purpose: string;
};

/** WCAG AA: text 4.5:1 (1.4.3), and the button against the page 3:1 as a component must be (1.4.11). */
export const CONTRAST_RULES: readonly ContrastRule[] = [
  { field: "text", fore: "text", back: "background", label: "Text and background", minimum: 4.5, purpose: "to be readable" },
  { field: "buttonText", fore: "buttonText", back: "button", label: "Button text and button", minimum: 4.5, purpose: "to be readable" },
  { field: "button", fore: "button", back: "background", label: "Buttons and background", minimum: 3, purpose: "for buttons to stand out from the page" },
];

export type ContrastCheck = { rule: ContrastRule; ratio: number; passes: boolean; message: string };

/** Every rule against these colours (normalised hex), with its ratio and, when it fails, why. */
export function checkContrast(colours: Pick<BioTheme, BioThemeColour>): ContrastCheck[] {
  return CONTRAST_RULES.map((rule) => {
    const ratio = contrastRatio(colours[rule.fore], colours[rule.back]);
    const passes = ratio >= rule.minimum;
    const message = passes
      ? `${rule.label} contrast is ${formatRatio(ratio)}`
      : `${rule.label} contrast is ${formatRatio(ratio)}; it needs at least ${formatRatio(rule.minimum)} ${rule.purpose}`;
    return { rule, ratio, passes, message };
  });
}

/** Whether a value is a theme as stored: four normalised colours, a known font, a preset name. */
export function isWellFormedTheme(value: unknown): value is BioTheme {
  if (typeof value !== "object" || value === null) return false;
  const theme = value as Record<string, unknown>;
  return (
    typeof theme.preset === "string" &&
    /^[a-z]{1,20}$/.test(theme.preset) &&
    typeof theme.font === "string" &&
    isBioFont(theme.font) &&
    THEME_COLOURS.every((key) => typeof theme[key] === "string" && normaliseHex(theme[key]) === theme[key])
  );
}

/**
 * The page's theme, the default when it has none. A stored value that is not
 * a well-formed theme (written by hand, or by an older rule) is the default
 * too: its colours go into CSS, so nothing unchecked may.
 */
export function themeOf(stored: BioTheme | null | undefined): BioTheme {
  return isWellFormedTheme(stored) ? stored : DEFAULT_THEME;
}
