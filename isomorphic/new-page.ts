import { DEFAULT_THEME } from "./bio-theme";

/** The tips switch's field on the new-page form: a hidden "off" before the checkbox's "on", so an unticked box still says so. */
export const ACCEPT_TIPS_FIELD = "acceptTips";

/** What the new-page form sets besides the page's own fields: a theme preset and whether tips are on. */
export type NewPageExtras = { preset: string; acceptTips: boolean };

/** A new page's look and tips as they are when nothing else is chosen: Sponsorgrid's theme, tips on. */
export const DEFAULT_NEW_PAGE_EXTRAS: NewPageExtras = { preset: DEFAULT_THEME.preset, acceptTips: true };

/** The tip amounts a new page starts with (bio_pages.tip_presets' default), for the preview, in minor units. */
export const NEW_PAGE_TIP_PRESETS: readonly number[] = [300, 500, 1000];
