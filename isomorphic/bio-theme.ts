/**
 * A bio page's look: colours of the page, its buttons and its text, and a
 * font stack (no web font is downloaded). Stored on the page as chosen; the
 * public page, the editor's preview, checkout and the result pages all draw
 * from it.
 */
export type BioTheme = {
  /** The preset it started from; custom colours may have changed it since. */
  preset: string;
  background: string;
  button: string;
  buttonText: string;
  text: string;
  font: string;
};

/** Sponsorgrid's own purple and mint: the look of every page that never chose one. */
export const DEFAULT_THEME: BioTheme = {
  preset: "sponsorgrid",
  background: "#603f8b",
  button: "#b4fee7",
  buttonText: "#2b1a40",
  text: "#ffffff",
  font: "system",
};

/** The page's theme, the default when it has none. */
export function themeOf(stored: BioTheme | null | undefined): BioTheme {
  return stored ?? DEFAULT_THEME;
}
