import { THEME_PRESETS } from "#isomorphic/bio-theme";
import type { ShowcasePage } from "#server/domains/bio/showcase";

/**
 * The page the home draws when the deployment has no featured page yet: the shape of a real one
 * (face, story, tip amounts, links) in one of the picker's themes, labelled as a sample.
 */
export const SAMPLE_PAGE: ShowcasePage = {
  customEnding: "",
  name: "Alex Rivera",
  blurb: "Ceramics, studio vlogs and a weekly live throw. Tips buy clay.",
  theme: (THEME_PRESETS.find((preset) => preset.id === "sunset") ?? THEME_PRESETS[0]!).theme,
  photoId: null,
  links: ["YouTube", "Instagram", "Shop my mugs"],
  tips: [300, 500, 1000],
  goal: { title: "A bigger kiln", target: 120000 },
};
